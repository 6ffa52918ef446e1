import { MikroORM } from '@mikro-orm/postgresql';
import request from 'supertest';
import { createLogger } from '../../src/shared/logger';
import { createApp } from '../../src/app';
import { ormConfig } from '../../src/db/orm-config';
import { JobQueue } from '../../src/jobs/job-queue';
import { createServices } from '../../src/services';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { testConfig } from '../helpers/test-config';
import { capturedLogs } from '../helpers/captured-logs';
import { createTestDatabase } from '../helpers/test-database';

const { logger: capturing, lines: logLines } = capturedLogs();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logger: capturing });
});
afterAll(() => t.close());

/** An app over some database, for the readiness cases that need a database in a particular state. */
async function appOver(url: string) {
  const orm = await MikroORM.init(ormConfig(url, { logger: () => undefined, pool: { min: 0, max: 2 } }));
  const logger = createLogger('silent');
  const config = testConfig();
  const queue = await JobQueue.start(url, logger, config.jobs, { schedules: false });
  // No file is written here (the database may be unreachable): no ProcessClaim is taken for its intents.
  const claim = { id: 0, execute: async () => undefined };
  const services = createServices(config, { queue, logger, claim });
  const app = await createApp({ orm, services, logger, jobMetrics: queue.metrics });
  return {
    http: request(app.express),
    orm,
    close: async () => (await app.close(), await queue.stop(), await orm.close(true)),
  };
}

describe('health and readiness (D15)', () => {
  it('answers /healthz and /readyz when the database is migrated', async () => {
    expect((await t.rest.get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
    expect((await t.rest.get('/readyz').expect(200)).body).toEqual({
      status: 'ok',
      checks: { database: 'ok', migrations: 'ok', documents: 'ok' },
    });
  });

  it('is not ready while migrations are pending', async () => {
    const empty = await createTestDatabase({ empty: true });
    const app = await appOver(empty.url);
    try {
      const res = await app.http.get('/readyz').expect(503);
      expect(res.body).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', migrations: 'pending', documents: 'ok' },
      });
      await app.http.get('/healthz').expect(200);
    } finally {
      await app.close();
      await empty.drop();
    }
  });

  it('is not ready when the database cannot be reached', async () => {
    const doomed = await createTestDatabase();
    const app = await appOver(doomed.url);
    try {
      await app.http.get('/readyz').expect(200);
      await doomed.drop();
      const res = await app.http.get('/readyz').expect(503);
      expect(res.body.checks.database).toBe('failing');
    } finally {
      await app.close();
    }
  });
});

describe('metrics and logs (D15)', () => {
  it('exposes Prometheus metrics labelled by route pattern', async () => {
    await t.rest.get('/api/v1/languages').expect(200);
    await t.rest.get('/api/v1/me').expect(401);
    const res = await t.rest.get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/languages",status="200"\} [1-9]/,
    );
    expect(res.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/me",status="401"\} [1-9]/,
    );
    expect(res.text).toContain('process_resident_memory_bytes');
  });

  it('shows the database pool: connections lent out and acquisitions waiting', async () => {
    const gauge = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
    await t.orm.em.fork().transactional(async (tx) => {
      await tx.getConnection().execute('SELECT 1', [], 'all', tx.getTransactionContext());
      const held = (await t.rest.get('/metrics').expect(200)).text;
      expect(gauge(held, 'db_pool_connections_in_use')).toBeGreaterThanOrEqual(1);
      expect(gauge(held, 'db_pool_acquires_waiting')).toBeGreaterThanOrEqual(0);
    });
    const idle = (await t.rest.get('/metrics').expect(200)).text;
    expect(idle).toMatch(/^# TYPE db_pool_acquires_waiting gauge$/m);
    expect(gauge(idle, 'db_pool_acquires_waiting')).toBe(0);
  });

  it('writes one JSON log line per request carrying its request id and the full path', async () => {
    const res = await t.rest.get('/api/v1/pricing?x=1').set('X-Request-Id', 'log-check-1').expect(200);
    expect(res.headers['x-request-id']).toBe('log-check-1');
    const line = logLines.find((l) => l.request_id === 'log-check-1');
    expect(line).toMatchObject({
      msg: 'request',
      method: 'GET',
      path: '/api/v1/pricing',
      status: 200,
      duration_ms: expect.any(Number),
    });
  });
});

describe('metrics outside the sandbox (D15)', () => {
  const token = 'metrics-token-0123456789abcdef';
  let production: TestApp;
  beforeAll(async () => {
    const metrics = { allowFrom: ['127.0.0.0/8', '192.0.2.0/24', '2001:db8::/32'], token };
    production = await startTestApp({ databaseOf: t, workers: false, config: { env: 'production', metrics } });
  });
  afterAll(() => production.close());
  const scrape = (from?: string, authorization?: string) => {
    const test = production.rest.raw().get('/metrics');
    if (from) test.set('X-Forwarded-For', from);
    if (authorization) test.set('Authorization', authorization);
    return test;
  };

  it('serves METRICS_ALLOW_FROM addresses and ranges, and the METRICS_TOKEN bearer from anywhere', async () => {
    for (const from of [undefined, '192.0.2.77', '2001:db8::5'])
      expect((await scrape(from)).text).toContain('process_resident_memory_bytes');
    expect((await scrape('198.51.100.1', `Bearer ${token}`).expect(200)).text).toContain(
      'process_resident_memory_bytes',
    );
  });

  it('refuses anyone else 403, and a wrong bearer 401, in D2 shape', async () => {
    for (const from of ['198.51.100.1', '192.0.3.1', '2001:db9::1']) {
      const res = await scrape(from).expect(403);
      expect(res.body).toEqual({ message: 'Metrics are not served to this address.' });
    }
    for (const authorization of [`Bearer ${token}x`, 'Bearer nope', `Basic ${token}`, token]) {
      const res = await scrape('198.51.100.1', authorization).expect(401);
      expect([res.body, res.headers['www-authenticate']]).toEqual([{ message: 'Unauthenticated.' }, 'Bearer']);
    }
  });
});
