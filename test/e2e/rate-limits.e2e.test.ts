import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** D16 with a limit of 3 a minute, so that the limit is reached in a few requests. */
let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitPerMinute: 3 }, workers: false });
  const staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
  bob = await createApprovedAccount(t, staff);
});
afterAll(() => t.close());

/** Starts the bucket's window over, as if a minute had passed. */
const windowEnds = (bucket: string) =>
  t.orm.em.fork().getConnection().execute(`UPDATE rate_limit_windows SET started_at = now() - interval '61 seconds' WHERE bucket = ?`, [bucket]);

const accountBucket = (account: TestAccount) => `account:${account.id}`;

describe('rate limits per API key (D16)', () => {
  it('counts down in X-RateLimit-Remaining, then answers 429 with Retry-After', async () => {
    await windowEnds(accountBucket(alice));
    for (const remaining of ['2', '1', '0']) {
      const res = await t.rest.get('/api/v1/orders', alice.key).expect(200);
      expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': remaining });
    }
    const refused = await t.rest.get('/api/v1/orders', alice.key).expect(429);
    expect(refused.body).toEqual({ message: 'Too Many Attempts.' });
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);

    // Another key has its own count; a new window starts the count again.
    expect((await t.rest.get('/api/v1/orders', bob.key).expect(200)).headers['x-ratelimit-remaining']).toBe('2');
    await windowEnds(accountBucket(alice));
    expect((await t.rest.get('/api/v1/orders', alice.key).expect(200)).headers['x-ratelimit-remaining']).toBe('2');
  });

  it('refuses a POST past the limit before it does anything, so its Idempotency-Key stays unused', async () => {
    await windowEnds(accountBucket(alice));
    for (let i = 0; i < 3; i++) await t.rest.get('/api/v1/orders', alice.key).expect(200);
    const body = { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [], unit_count: 1 };
    await t.rest.post('/api/v1/quotes', body, alice.key).set('Idempotency-Key', 'limited-1').expect(429);
    await windowEnds(accountBucket(alice));
    const created = await t.rest.post('/api/v1/quotes', body, alice.key).set('Idempotency-Key', 'limited-1');
    expect(created.status).not.toBe(429);
    expect(created.headers['idempotent-replayed']).toBeUndefined();
  });

  it('shares one count between every HTTP process on the database', async () => {
    const other = await startTestApp({ databaseOf: t, config: { rateLimitPerMinute: 3 }, workers: false });
    try {
      await windowEnds(accountBucket(bob));
      await t.rest.get('/api/v1/orders', bob.key).expect(200);
      await other.rest.get('/api/v1/orders', bob.key).expect(200);
      expect((await t.rest.get('/api/v1/orders', bob.key).expect(200)).headers['x-ratelimit-remaining']).toBe('0');
      await other.rest.get('/api/v1/orders', bob.key).expect(429);
    } finally {
      await other.close();
    }
  });

  it('does not count requests that fail authentication', async () => {
    await windowEnds(accountBucket(alice));
    for (let i = 0; i < 5; i++) await t.rest.get('/api/v1/orders', 'ltk_test_notakey').expect(401);
    expect((await t.rest.get('/api/v1/orders', alice.key).expect(200)).headers['x-ratelimit-remaining']).toBe('2');
  });
});

describe('rate limits on the catalog, per client address (D16)', () => {
  it('limits each address on its own, across both catalog endpoints', async () => {
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
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))![1] as { headers: object };
      expect(Object.keys(success.headers)).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining']));
      expect(operation.responses['429']).toEqual({ $ref: '#/components/responses/TooManyAttempts' });
    }
    expect(paths['/files/{id}/download'].get.responses['429']).toBeUndefined();
  });
});
