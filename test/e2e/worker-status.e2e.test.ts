import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import request from 'supertest';
import { ormConfig } from '../../src/db/orm-config';
import { JobQueue } from '../../src/jobs/job-queue';
import { createLogger } from '../../src/shared/logger';
import { pollUntil } from '../helpers/poll';
import { assertBuilt, cleanEnv, MAIN, startProcess, type RunningProcess } from '../helpers/service-process';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

/**
 * D37: a `npm run worker` process answers probes and metrics on WORKER_PORT, and periodic tasks run once per tick
 * across processes. A worker and an `npm start` (role all) process share one database, as a deployment would run them.
 */
let database: TestDatabase;
let orm: MikroORM;
let queue: JobQueue;
const processes: RunningProcess[] = [];
let worker: ReturnType<typeof request>;
let all: ReturnType<typeof request>;

beforeAll(async () => {
  assertBuilt();
  database = await createTestDatabase();
  const env = (own: Record<string, string>) =>
    cleanEnv({
      DATABASE_URL: database.url,
      LOG_LEVEL: 'info',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-worker-status-')),
      JOBS_POLLING_INTERVAL_SECONDS: '0.5',
      ...own,
    });
  processes.push(startProcess(MAIN, ['--role', 'worker'], env({ WORKER_PORT: '0' })));
  processes.push(startProcess(MAIN, [], env({ PORT: '0' })));
  const working = JSON.parse(await processes[0].waitFor(/working on jobs/, 60_000));
  worker = request(`http://127.0.0.1:${working.worker_port}`);
  all = request(`http://127.0.0.1:${JSON.parse(await processes[1].waitFor(/listening on port/, 60_000)).port}`);
  // The test's own hand on the queue, to add jobs as a request would; it runs none.
  orm = await MikroORM.init(ormConfig(database.url, { logger: () => undefined, pool: { min: 0, max: 2 } }));
  queue = await JobQueue.start(
    database.url,
    createLogger('silent'),
    { pollingIntervalSeconds: 2, heartbeatSeconds: 30 },
    { schedules: false },
  );
}, 120_000);

afterAll(async () => {
  await queue?.stop();
  await orm?.close(true);
  for (const proc of processes) if (proc.child.exitCode === null) proc.child.kill('SIGTERM');
  const ended = await Promise.all(processes.map(async (proc) => [await proc.exited, proc.stderr]));
  await database.drop();
  expect(ended).toEqual(processes.map(() => [0, []]));
});

/** The value of one sample of a Prometheus text page, 0 when absent (a labelled series not yet seen). */
function sample(page: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels)
    .map(([label, value]) => `${label}="${value}"`)
    .join(',');
  const line = page.split('\n').find((text) => text.startsWith(`${name}{${wanted}} `));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** A sample summed over both processes: each counts the job runs it did itself. */
async function summed(name: string, labels: Record<string, string>): Promise<number> {
  const pages = await Promise.all([worker, all].map(async (http) => (await http.get('/metrics').expect(200)).text));
  return pages.reduce((sum, page) => sum + sample(page, name, labels), 0);
}

describe('a worker process with WORKER_PORT (D37)', () => {
  it('answers /healthz, /readyz and /metrics, and 404 for anything else', async () => {
    expect((await worker.get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
    expect((await worker.get('/readyz').expect(200)).body).toEqual({
      status: 'ok',
      checks: { database: 'ok', migrations: 'ok', documents: 'ok' },
    });
    const metrics = await worker.get('/metrics').expect(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.text).toMatch(/^# TYPE job_duration_seconds histogram$/m);
    expect(metrics.text).toMatch(/^# TYPE job_failures_total counter$/m);
    expect(metrics.text).toMatch(/^# TYPE job_queue_depth gauge$/m);
    expect(metrics.text).toMatch(/^db_pool_connections_in_use \d+$/m);
    expect((await worker.get('/api/v1/languages').expect(404)).body).toEqual({ message: 'Not found.' });
    await worker.post('/metrics').expect(405);
  });

  it('shows each queue depth, and the durations and failures of the jobs that ran', async () => {
    // Mail is delivered over SMTP in production only: in the sandbox no worker takes these, so they stay queued.
    for (let i = 0; i < 2; i++) await queue.enqueue(orm.em.fork(), 'deliver-email', { emailId: randomUUID() });
    // A file that is not there ends its job at once; an id that is no id fails it (and it is retried).
    await queue.enqueue(orm.em.fork(), 'analyse-file', { fileId: randomUUID() });
    await queue.enqueue(orm.em.fork(), 'analyse-file', { fileId: 'not-an-id' });

    // The depth is pg-boss's count of the queue, refreshed by its monitor (every 10 s here): whichever process asks.
    await pollUntil(
      async () => (await worker.get('/metrics').expect(200)).text,
      (page) => sample(page, 'job_queue_depth', { queue: 'deliver-email', state: 'queued' }) === 2,
      {
        failure: (page) => `no depth of 2 for deliver-email: ${(page.match(/^job_queue_depth.*$/gm) ?? []).join('; ')}`,
        timeoutMs: 60_000,
      },
    );
    const runs = await pollUntil(
      async () => ({
        all: await summed('job_duration_seconds_count', { queue: 'analyse-file' }),
        failed: await summed('job_failures_total', { queue: 'analyse-file' }),
      }),
      ({ all, failed }) => failed >= 1 && all - failed >= 1,
      { failure: (last) => `analyse-file runs: ${JSON.stringify(last)}`, timeoutMs: 60_000 },
    );
    expect(runs.failed).toBeLessThan(runs.all);
  });
});

describe('periodic tasks (D37)', () => {
  it('run once per tick across two processes on one database, not once in each', async () => {
    // The order count fold ticks every minute, and both processes make pg-boss's cron pass: a tick forwarded by each
    // would show as two forwards of one slot (a second tick would only cost this file another minute).
    const runs = () => summed('job_duration_seconds_count', { queue: 'order-count-fold' });
    await pollUntil(runs, (n) => n >= 1, { failure: (n) => `${n} runs of the fold`, timeoutMs: 90_000 });
    // pg-boss's cron pass files each tick it forwards under the tick's minute (its `slot`), one forward a slot
    // whichever process made the pass; each forward adds one job of the task's queue.
    const [{ slots, forwards, jobs }] = await orm.em
      .fork()
      .getConnection()
      .execute<{ slots: number; forwards: number; jobs: number }[]>(
        `SELECT count(DISTINCT data->>'slot')::int AS slots, count(*)::int AS forwards,
              (SELECT count(*)::int FROM pgboss.job WHERE name = 'order-count-fold') AS jobs
         FROM pgboss.job WHERE name = '__pgboss__send-it' AND data->>'name' = 'order-count-fold'`,
      );
    expect(slots).toBeGreaterThanOrEqual(1);
    expect({ forwards, jobs }).toEqual({ forwards: slots, jobs: slots });
    // Every run was one of these jobs, run once: no process ran a tick on its own, nor a job twice.
    expect(await runs()).toBeLessThanOrEqual(jobs);
  }, 120_000);
});
