import { MikroORM } from '@mikro-orm/postgresql';
import { createServer, type Server } from 'node:http';
import { createApp } from '../src/app';
import type { loadConfig } from '../src/config/load-config';
import { ormConfig } from '../src/db/orm-config';
import { ProcessClaim } from '../src/db/process-claim';
import { JobQueue } from '../src/jobs/job-queue';
import { createServices, type Services } from '../src/services';
import { createLogger } from '../src/shared/logger';
import { startWorkers } from '../src/workers';
import type { Call } from './seed';

export interface InProcessApp {
  base: string;
  orm: MikroORM;
  services: Services;
  /** A client of the REST door with this key. */
  call: (key: string) => Call;
  /** Stops the job workers: no job may run a statement while a request's are counted. */
  stopWorkers(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The service in this process, with its job workers (translations finish), for seeding through its doors; every
 * statement its ORM runs, prepared ones included, is handed to `onStatement` as the ORM logs it (with its time).
 */
export async function startInProcessApp(
  config: ReturnType<typeof loadConfig>,
  url: string,
  onStatement: (line: string) => void,
): Promise<InProcessApp> {
  const logger = createLogger('silent');
  const orm = await MikroORM.init(ormConfig(url, { debug: ['query'], logger: onStatement }));
  const queue = await JobQueue.start(url, logger, { ...config.jobs, pollingIntervalSeconds: 0.5 }, { schedules: true });
  const claim = await ProcessClaim.take(url);
  const services = createServices(config, { queue, logger, claim });
  await startWorkers(queue, orm, services);
  const app = await createApp({ orm, services, logger, jobMetrics: queue.metrics });
  const server: Server = createServer(app.listener).listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  let workersStopped: Promise<void> | undefined;
  const stopWorkers = () => (workersStopped ??= queue.stop());
  return {
    base,
    orm,
    services,
    call: (key) => async (method, path, body) => {
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      if (typeof body === 'string') headers['content-type'] = 'application/json';
      const res = await fetch(`${base}${path}`, { method, body, headers });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Awaited<ReturnType<Call>>;
    },
    stopWorkers,
    async close() {
      await stopWorkers();
      server.close();
      await app.close();
      await claim.release();
      await orm.close();
    },
  };
}
