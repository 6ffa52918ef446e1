import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { JobQueue } from '../../src/jobs/job-queue';
import { createLogger } from '../../src/shared/logger';
import { pollUntil } from '../helpers/poll';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { createTestDatabase } from '../helpers/test-database';

/** Jobs are enqueued inside the caller's transaction (ARCHITECTURE): they exist exactly when the change commits. */
let t: TestApp;
beforeAll(async () => (t = await startTestApp({ workers: false })));
afterAll(() => t.close());

const jobsFor = (marker: string) =>
  t.orm.em
    .fork()
    .getConnection()
    .execute<{ name: string; data: object }[]>(`SELECT name, data FROM pgboss.job WHERE data->>'fileId' = ?`, [marker]);

describe('JobQueue.enqueue', () => {
  it('commits the job with the transaction', async () => {
    await t.orm.em.fork().transactional((em) => t.queue.enqueue(em, 'analyse-file', { fileId: 'committed-1' }));
    expect(await jobsFor('committed-1')).toEqual([{ name: 'analyse-file', data: { fileId: 'committed-1' } }]);
  });

  it('leaves no job when the transaction rolls back', async () => {
    await expect(
      t.orm.em.fork().transactional(async (em) => {
        await t.queue.enqueue(em, 'analyse-file', { fileId: 'rolled-back-1' });
        throw new Error('the change failed after queueing');
      }),
    ).rejects.toThrow('the change failed after queueing');
    expect(await jobsFor('rolled-back-1')).toEqual([]);
  });

  it('binds values containing placeholders and question marks literally', async () => {
    const tricky = "it's $1 ? or ?? :x";
    await t.orm.em.fork().transactional((em) => t.queue.enqueue(em, 'analyse-file', { fileId: tricky }));
    expect(await jobsFor(tricky)).toEqual([{ name: 'analyse-file', data: { fileId: tricky } }]);
  });
});

describe('the upgrade from pg-boss 10', () => {
  it('moves the jobs pg-boss 10 had queued into the new queue, which runs them, and drops the old schema', async () => {
    // pg-boss 10's own schema, captured from its getConstructionPlans (lighter than a second copy of pg-boss).
    const database = await createTestDatabase();
    const client = new Client({ connectionString: database.url });
    await client.connect();
    let queue: JobQueue | undefined;
    try {
      await client.query('DROP SCHEMA pgboss CASCADE');
      await client.query(readFileSync(join(__dirname, '../fixtures/pg-boss-10-schema.sql'), 'utf8'));
      const queued = randomUUID();
      const insert = `INSERT INTO pgboss.job (id, name, data, state, retry_limit, retry_delay, retry_backoff, expire_in) VALUES ($1, 'analyse-file', $2, $3, 3, 5, true, interval '30 seconds')`;
      await client.query(insert, [queued, { fileId: 'queued-before-the-upgrade' }, 'created']);
      await client.query(insert, [randomUUID(), { fileId: 'done-before-the-upgrade' }, 'completed']);

      queue = await JobQueue.start(
        database.url,
        createLogger('silent'),
        {
          pollingIntervalSeconds: 0.5,
          heartbeatSeconds: 10,
        },
        { schedules: false },
      );
      const ran: object[] = [];
      await queue.work<object>('analyse-file', async (data) => void ran.push(data));
      await pollUntil(
        async () => ran.length,
        (count) => count > 0,
        { timeoutMs: 20_000, intervalMs: 100, failure: () => 'the queued job never ran' },
      );
      expect(ran).toEqual([{ fileId: 'queued-before-the-upgrade' }]);
      expect((await client.query(`SELECT id FROM pgboss.job WHERE name = 'analyse-file'`)).rows).toEqual([
        { id: queued },
      ]);
      expect((await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'pgboss_v10'`)).rows).toEqual([]);
    } finally {
      await queue?.stop();
      await client.end();
      await database.drop();
    }
  });
});
