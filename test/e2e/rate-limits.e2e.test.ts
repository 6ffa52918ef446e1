import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { accountBucket, RateLimitService } from '../../src/domain/rate-limits/rate-limit.service';
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { gqlRaw } from '../helpers/graphql-raw';
import { earlyInWindow } from '../helpers/rate-window';
import { assertBuilt, cleanEnv, MAIN, startProcess, type RunningProcess } from '../helpers/service-process';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { StatementLog } from '../helpers/statement-log';

/** D16 with a limit of 3 a minute, so that the limit is reached in a few requests. */
let t: TestApp;
let staff: string;
const statements = new StatementLog();
beforeAll(async () => {
  assertBuilt();
  t = await startTestApp({ config: { rateLimitPerMinute: 3 }, workers: false, onQuery: statements.record });
  staff = await createStaffToken(t);
});
afterAll(() => t.close());

const newAccount = () => createApprovedAccount(t, staff);

describe('rate limits per API key (D16)', () => {
  it('counts down in X-RateLimit-Remaining, then answers 429 with Retry-After', async () => {
    const [alice, bob] = [await newAccount(), await newAccount()];
    await earlyInWindow();
    for (const remaining of ['2', '1', '0']) {
      const res = await t.rest.get('/api/v1/orders', alice.key).expect(200);
      expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': remaining });
    }
    const refused = await t.rest.get('/api/v1/orders', alice.key).expect(429);
    expect(refused.body).toEqual({ message: 'Too Many Attempts.' });
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another key has its own count.
    expect((await t.rest.get('/api/v1/orders', bob.key).expect(200)).headers['x-ratelimit-remaining']).toBe('2');
  });

  it('refuses a spent key on both doors before looking it up: a flood of spent requests costs no database work', async () => {
    const alice = await newAccount();
    await earlyInWindow();
    for (let i = 0; i < 3; i++) await t.rest.get('/api/v1/me', alice.key).expect(200);
    const rest = await t.rest.get('/api/v1/me', alice.key).expect(429);
    expect(rest.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0' });
    const graphql = await gqlRaw(t.rest.raw(), '{ me { id } }', { token: alice.key });
    expect(graphql.status).toBe(429);
    expect([...statements.of(rest), ...statements.of(graphql)]).toEqual([]);
  });

  it('does not charge a 304 (D23): a key may poll what did not change without spending its budget', async () => {
    const alice = await newAccount();
    await earlyInWindow();
    const first = await t.rest.get('/api/v1/orders', alice.key).expect(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('2');
    for (let i = 0; i < 5; i++) {
      const unchanged = await t.rest
        .get('/api/v1/orders', alice.key)
        .set('If-None-Match', first.headers.etag)
        .expect(304);
      expect(unchanged.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2' });
    }
    expect(
      (await t.rest.get('/api/v1/orders', alice.key).set('If-None-Match', '"stale"').expect(200)).headers[
        'x-ratelimit-remaining'
      ],
    ).toBe('1');
    await t.rest.get('/api/v1/me', alice.key).expect(200);
    // A spent key is refused its conditional requests too: a 304 is free, not a way past the limit.
    await t.rest.get('/api/v1/orders', alice.key).set('If-None-Match', first.headers.etag).expect(429);
  });

  it("limits requests with a bad key or none per client address on both doors, never from an account's budget", async () => {
    const alice = await newAccount();
    await earlyInWindow();
    const address = { 'X-Forwarded-For': '192.0.2.60' };
    const badKey = `ltk_test_${'0'.repeat(39)}1`;
    const refused = [];
    for (let i = 0; i < 3; i++) refused.push(await t.rest.get('/api/v1/orders', badKey).set(address).expect(401));
    expect(refused.map((res) => res.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0']);
    const rest = await t.rest.get('/api/v1/orders', badKey).set(address).expect(429);
    expect(rest.body).toEqual({ message: 'Too Many Attempts.' });
    await t.rest.get('/api/v1/me').set(address).expect(429);
    const graphql = await gqlRaw(t.rest.raw(), '{ languages { code } }', { token: badKey, headers: address });
    expect(graphql.status).toBe(429);
    // The bad key was looked up once: its miss is remembered, so repeating it costs no database work (D24).
    expect(statements.of(refused[0])).toEqual([expect.stringMatching(/from "accounts"/)]);
    expect([...refused.slice(1), rest, graphql].flatMap((res) => statements.of(res))).toEqual([]);
    // A good key from that address spends its account's budget; another address has its own.
    expect(
      (await t.rest.get('/api/v1/orders', alice.key).set(address).expect(200)).headers['x-ratelimit-remaining'],
    ).toBe('2');
    expect(
      (await t.rest.get('/api/v1/orders', badKey).set({ 'X-Forwarded-For': '192.0.2.61' }).expect(401)).headers[
        'x-ratelimit-remaining'
      ],
    ).toBe('2');
  });

  it('limits a bad key on GraphQL per client address first, then on REST from the same budget', async () => {
    await earlyInWindow();
    const address = { 'X-Forwarded-For': '192.0.2.62' };
    const badKey = `ltk_test_${'0'.repeat(39)}2`;
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await gqlRaw(t.rest.raw(), '{ languages { code } }', { token: badKey, headers: address }));
    expect(answers.map((answer) => [answer.status, answer.headers['x-ratelimit-remaining']])).toEqual([
      [200, '2'],
      [200, '1'],
      [200, '0'],
    ]);
    expect((await gqlRaw(t.rest.raw(), '{ languages { code } }', { token: badKey, headers: address })).status).toBe(
      429,
    );
    await t.rest.get('/api/v1/orders', badKey).set(address).expect(429);
    expect(answers.slice(1).flatMap((answer) => statements.of(answer))).toEqual([]);
  });

  it("writes nothing on a request's path: it runs only the key's look-up", async () => {
    const alice = await newAccount();
    await earlyInWindow();
    const rest = await t.rest.get('/api/v1/me', alice.key).expect(200);
    const graphql = await gqlRaw(t.rest.raw(), '{ me { id } }', { token: alice.key });
    // The key's look-up, once per request.
    expect([...statements.of(rest), ...statements.of(graphql)]).toEqual([
      expect.stringMatching(/from "accounts"/),
      expect.stringMatching(/from "accounts"/),
    ]);
  });
});

describe('a new window (D16)', () => {
  const WINDOW_MS = 2000;
  let short: TestApp;
  beforeAll(async () => {
    short = await startTestApp({
      databaseOf: t,
      workers: false,
      adjust: (services) => void (services.rateLimits = new RateLimitService(3, WINDOW_MS)),
    });
  });
  afterAll(() => short.close());

  it('starts the budget again, and a POST refused before it did anything has left its Idempotency-Key unused', async () => {
    const alice = await newAccount();
    await earlyInWindow(WINDOW_MS, 1500);
    for (let i = 0; i < 3; i++) await short.rest.get('/api/v1/orders', alice.key).expect(200);
    const body = {
      source_language: 'es',
      target_language: 'en',
      service_type: 'standard',
      file_ids: [],
      unit_count: 1,
    };
    await short.rest.post('/api/v1/quotes', body, alice.key).set('Idempotency-Key', 'limited-1').expect(429);
    await earlyInWindow(WINDOW_MS, WINDOW_MS);
    const created = await short.rest.post('/api/v1/quotes', body, alice.key).set('Idempotency-Key', 'limited-1');
    expect(created.status).not.toBe(429);
    expect(created.headers['x-ratelimit-remaining']).toBe('2');
    expect(created.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('one budget for both doors (D24)', () => {
  let b: TestApp;
  beforeAll(async () => {
    b = await startTestApp({ databaseOf: t, workers: false, config: { rateLimitPerMinute: 40 } });
  });
  afterAll(() => b.close());
  const ask = (key: string, query: string) => gqlRaw(b.rest.raw(), query, { token: key });

  it('GraphQL spends its cost from the budget REST spends 1 from, with the same headers', async () => {
    const alice = await newAccount();
    await earlyInWindow();
    const me = await ask(alice.key, '{ me { id } }');
    expect(me.extensions?.cost).toBe(1);
    expect(me.headers).toMatchObject({ 'x-ratelimit-limit': '40', 'x-ratelimit-remaining': '39' });
    // Asked for a page of 10 (11), charged what it returned (D24, amended): no orders, so the page alone.
    const page = await ask(alice.key, '{ orders(perPage: 10) { items { id } } }');
    expect(page.extensions).toMatchObject({ cost: 11, actualCost: 1 });
    expect(page.headers).toMatchObject({
      'x-ratelimit-remaining': '38',
      'x-ratelimit-cost-requested': '11',
      'x-ratelimit-cost-actual': '1',
    });
    for (let i = 0; i < 10; i++) await b.rest.get('/api/v1/me', alice.key).expect(200);
    expect((await b.rest.get('/api/v1/orders', alice.key).expect(200)).headers['x-ratelimit-remaining']).toBe('27');

    // More than is left: 429 with Retry-After and the headers, RATE_LIMITED with the wait; nothing is spent.
    const refused = await ask(alice.key, '{ orders(perPage: 30) { items { id } } }');
    expect(refused.status).toBe(429);
    expect(refused.data).toBeUndefined();
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '40', 'x-ratelimit-remaining': '27' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.errors).toEqual([
      { message: 'Too Many Attempts.', extensions: { code: 'RATE_LIMITED', retryAfterSeconds: retryAfter, cost: 31 } },
    ]);
    expect((await b.rest.get('/api/v1/orders', alice.key).expect(200)).headers['x-ratelimit-remaining']).toBe('26');

    // Over a whole budget can never run: QUERY_TOO_COMPLEX, and the refusal is charged its cost, here all that is
    // left (D36).
    const tooBig = await ask(alice.key, '{ orders(perPage: 40) { items { id } } }');
    expect(tooBig.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', cost: 41, maxCost: 40 });
    expect(tooBig.headers['x-ratelimit-remaining']).toBe('0');

    // Spent on both doors: REST is refused, and GraphQL before its document is even read.
    await b.rest.get('/api/v1/me', alice.key).expect(429);
    const spent = await ask(alice.key, '{ me { id } }');
    expect(spent.status).toBe(429);
    expect(spent.errors?.[0]?.extensions.code).toBe('RATE_LIMITED');
    expect(spent.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('limits GraphQL without a key per client address, from the budget the REST catalog spends', async () => {
    await earlyInWindow();
    const address = { 'X-Forwarded-For': '192.0.2.40' };
    expect((await b.rest.get('/api/v1/languages').set(address).expect(200)).headers['x-ratelimit-remaining']).toBe(
      '39',
    );
    const languages = await gqlRaw(b.rest.raw(), '{ languages { code } }', { headers: address });
    expect(languages.extensions?.cost).toBe(1);
    expect(languages.headers['x-ratelimit-remaining']).toBe('38');
  });
});

describe('one budget across the processes on one database, whatever their role (D24, D37)', () => {
  const services: RunningProcess[] = [];
  const http: ReturnType<typeof request>[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const env = cleanEnv({
        DATABASE_URL: t.database.url,
        PORT: '0',
        RATE_LIMIT_PER_MINUTE: '120',
        LOG_LEVEL: 'info',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-serve-')),
      });
      // `npm start` (role all) beside `npm run serve`: the first counts its budgets in the database too.
      services.push(startProcess(MAIN, i === 0 ? [] : ['--role', 'serve'], env));
    }
    // Both start at once; each is asked for only once it listens.
    for (const service of services)
      http.push(request(`http://127.0.0.1:${JSON.parse(await service.waitFor(/listening on port/, 60_000)).port}`));
  }, 120_000);
  afterAll(async () => {
    for (const service of services) service.child.kill('SIGTERM');
    await Promise.all(services.map((service) => service.exited));
  });

  it('answers at most a tenth over one budget, REST on `npm start` and GraphQL on `npm run serve`', async () => {
    const alice = await newAccount();
    const rest = (i: number) => http[i].get('/api/v1/orders').set('Authorization', `Bearer ${alice.key}`);
    const me = (i: number) => gqlRaw(http[i], '{ me { id } }', { token: alice.key });
    await earlyInWindow(60_000, 20_000);
    // 140 requests for a budget of 120, ten at a time, half on each process.
    const statuses: number[] = [];
    for (let batch = 0; batch < 14; batch++) {
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, async (_, i) => (i % 2 ? (await me(1)).status : (await rest(0)).status)),
        )),
      );
    }
    const answered = statuses.filter((status) => status === 200).length;
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    // Leases of 12: past the budget by less than one; short of it by at most what the other process still holds.
    expect(answered).toBeLessThanOrEqual(132);
    expect(answered).toBeGreaterThanOrEqual(108);
    const shared = (
      await t.orm.em
        .fork()
        .getConnection()
        .execute(`SELECT sum(hits)::int AS n FROM rate_limit_counts WHERE bucket = ?`, [accountBucket(alice.id)])
    )[0].n as number;
    expect(shared).toBeLessThanOrEqual(131);
    await rest(0).expect(429);
    expect((await me(1)).status).toBe(429);
  });
});

describe('rate limits on the catalog, per client address (D16)', () => {
  it('limits each address on its own, across both catalog endpoints', async () => {
    await earlyInWindow();
    const from = (address: string, path: string) => t.rest.get(path).set('X-Forwarded-For', address);
    await from('203.0.113.7', '/api/v1/languages').expect(200);
    await from('203.0.113.7', '/api/v1/pricing').expect(200);
    expect((await from('203.0.113.7', '/api/v1/languages').expect(200)).headers['x-ratelimit-remaining']).toBe('0');
    const refused = await from('203.0.113.7', '/api/v1/pricing').expect(429);
    expect(refused.body).toEqual({ message: 'Too Many Attempts.' });
    expect((await from('198.51.100.20', '/api/v1/languages').expect(200)).headers['x-ratelimit-remaining']).toBe('2');
  });
});

describe('the OpenAPI document on rate limits (D16)', () => {
  it('documents the headers and the 429 on limited operations only', async () => {
    const { paths } = (await t.rest.get('/api/v1/openapi.json').expect(200)).body;
    for (const operation of [paths['/orders/{id}'].get, paths['/quotes'].post, paths['/languages'].get]) {
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))![1] as {
        headers: object;
      };
      expect(Object.keys(success.headers)).toEqual(
        expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining']),
      );
      expect(operation.responses['429']).toEqual({ $ref: '#/components/responses/TooManyAttempts' });
    }
    expect(paths['/files/{id}/download'].get.responses['429']).toBeUndefined();
  });
});
