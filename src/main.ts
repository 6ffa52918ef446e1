import './node-env';
import 'reflect-metadata';
import type { Server } from 'node:http';
import { parseArgs } from 'node:util';
import { createHttpServer } from './api/http/http-server';
import { createLogger, type Logger } from './shared/logger';
import { createApp, type App } from './app';
import { ConfigError, loadConfig } from './config/load-config';
import { openDatabase } from './db/database';
import { migrate } from './db/migrations';
import { withStartupLock } from './db/startup-lock';
import { JobQueue } from './jobs/job-queue';
import { startWorkers } from './workers';
import { workerStatus } from './api/ops/worker-status';
import { join } from 'node:path';
import { liveProcessIds } from './db/live-processes';
import { ProcessClaim } from './db/process-claim';
import { Leftovers } from './domain/files/leftovers';
import { STALE_AFTER_MS } from './domain/files/temp-files';
import { createServices, type Services } from './services';

/** `all` (npm start): HTTP and jobs; `serve`: HTTP only; `worker`: jobs only, so each can scale apart (D11). */
type Role = 'all' | 'serve' | 'worker';

/** Boot: config -> database (embedded when DATABASE_URL is unset) -> migrations -> queue and workers -> HTTP; drain on SIGTERM. */
async function main(role: Role): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // Signals are ours from the start: one that arrives while booting waits for the boot, then stops it cleanly
  // (an embedded server started meanwhile included). Later ones change nothing: Ctrl-C under `npm start` reaches
  // this process twice (from the terminal and forwarded by npm), and the second must not cut the drain short.
  let requested: string | undefined;
  let onSignal = (signal: string) => void (requested ??= signal);
  const signals = takeSignals((signal) => onSignal(signal));
  const db = await openDatabase(config, logger);
  let queue: JobQueue | undefined;
  let app: App | undefined;
  let server: Server | undefined;
  let services: Services | undefined;
  let claim: ProcessClaim | undefined;
  const close = async () => {
    await app?.close();
    await queue?.stop();
    services?.documents.close();
    services?.standardOffer.stop();
    await claim?.release();
    await db.close();
  };
  try {
    const url = db.orm.config.get('clientUrl')!;
    queue = await withStartupLock(url, async () => {
      await migrate(db.orm);
      return JobQueue.start(url, logger, config.jobs, { schedules: role !== 'serve' });
    });
    claim = await ProcessClaim.take(url);
    services = createServices(config, { queue, logger, claim });
    const leftovers = new Leftovers(
      db.orm.em.fork(),
      services.files,
      join(config.dataDir, 'tmp'),
      logger,
      liveProcessIds,
    );
    await leftovers.removeTempFiles();
    // Listing the whole store can take a while: the service answers meanwhile (what is swept is nobody's).
    void leftovers.removeStoredBytes();
    // A timer of each process, not a schedule (D37): each process sweeps the folder of its own machine.
    setInterval(() => void leftovers.removeTempFiles(), STALE_AFTER_MS / 4).unref();
    if (role !== 'serve') await startWorkers(queue, db.orm, services);
    if (role !== 'worker') {
      // Whatever the role, another process may serve this database (`npm start` beside `npm run serve`): budgets
      // are shared through it (D37).
      app = await createApp({ orm: db.orm, services, logger, jobMetrics: queue.metrics, shareRateLimits: true });
      signals.takeBack();
      server = createHttpServer(app.listener, config.http);
      const port = await listen(server, config.port);
      logger.info(
        { env: config.env, role, port, embedded_database: Boolean(db.embedded) },
        `listening on port ${port}`,
      );
    } else {
      // A worker's probes and metrics (D37) answer on a port of their own, WORKER_PORT, when it is set.
      let workerPort: number | undefined;
      if (config.workerPort !== undefined) {
        server = createHttpServer(workerStatus(db.orm, services, queue.metrics, logger), config.http);
        workerPort = await listen(server, config.workerPort);
      }
      logger.info(
        { env: config.env, role, worker_port: workerPort, embedded_database: Boolean(db.embedded) },
        'working on jobs',
      );
    }
  } catch (error) {
    await close();
    throw error;
  }

  // Drain HTTP and jobs first, then close the database (and stop the embedded server).
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'draining requests');
    if (server) await drain(server, config.shutdownTimeoutMs, logger);
    await close();
    logger.info('stopped');
    process.exit(0);
  };
  onSignal = () => undefined;
  if (requested) return void shutdown(requested);
  onSignal = (signal) => {
    onSignal = () => undefined;
    void shutdown(signal);
  };
}

/**
 * This process alone handles the termination signals: Apollo installs handlers of its own when it starts, which
 * stop it and raise the signal again, racing (and blocking) the drain below; `takeBack()` removes them. Ours stay
 * installed throughout: a signal that arrived while the boot held the event loop (building the GraphQL schema) is
 * dispatched later, and removing every listener meanwhile would drop it, leaving the process running.
 */
function takeSignals(handler: (signal: string) => void): { takeBack(): void } {
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  const ours = new Map(signals.map((signal) => [signal, () => handler(signal)]));
  const takeBack = () => {
    for (const [signal, listener] of ours)
      for (const other of process.listeners(signal)) if (other !== listener) process.removeListener(signal, other);
  };
  for (const [signal, listener] of ours) process.on(signal, listener);
  takeBack();
  return { takeBack };
}

/** Listens on `port` (0: any free one) and answers the port taken. */
async function listen(server: Server, port: number): Promise<number> {
  server.listen(port);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return (server.address() as { port: number }).port;
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

function readRole(argv: string[]): Role {
  const { values } = parseArgs({ args: argv, options: { role: { type: 'string', default: 'all' } } });
  if (values.role === 'all' || values.role === 'serve' || values.role === 'worker') return values.role;
  throw new ConfigError(`Invalid role: --role must be all, serve or worker (got ${JSON.stringify(values.role)}).`);
}

Promise.resolve()
  .then(() => main(readRole(process.argv.slice(2))))
  .catch((error: unknown) => {
    // A bad configuration is one clear line (D15); anything else is reported without the noise of a stack.
    console.error(
      error instanceof ConfigError
        ? error.message
        : `Start-up failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
