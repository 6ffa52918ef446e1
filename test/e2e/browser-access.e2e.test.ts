import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let firm: TestAccount;
beforeAll(async () => {
  t = await startTestApp({ workers: false });
  firm = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(() => t.close());

const PORTAL = 'http://localhost:5173';

describe('CORS for portal origins (D27)', () => {
  it('answers a preflight from an allowed origin with the allowed headers, and no credentials', async () => {
    const res = await t.rest
      .raw()
      .options('/graphql')
      .set('Origin', PORTAL)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type,apollo-require-preflight');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(PORTAL);
    expect(res.headers['access-control-allow-headers']).toBe(
      'Authorization,Content-Type,Idempotency-Key,If-None-Match,Apollo-Require-Preflight',
    );
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('exposes the headers a portal reads on a REST answer', async () => {
    const res = await t.rest.get('/api/v1/orders', firm.key).set('Origin', PORTAL).expect(200);
    expect(res.headers['access-control-allow-origin']).toBe(PORTAL);
    expect(res.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
    expect(res.headers['access-control-expose-headers']).toContain('ETag');
  });

  it('allows this machine by any of its names in the sandbox: localhost, 127.0.0.1 and [::1]', async () => {
    for (const origin of ['http://localhost', 'http://127.0.0.1:5173', 'http://[::1]:8080']) {
      const res = await t.rest.raw().get('/api/v1/languages').set('Origin', origin).expect(200);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    }
  });

  it('gives an origin not in the list nothing to go on', async () => {
    for (const origin of [
      'https://evil.example',
      'http://localhost.evil.example',
      'http://127.0.0.1.evil.example',
      'http://[::1].evil.example',
      'https://127.0.0.1',
    ]) {
      const res = await t.rest
        .raw()
        .options('/graphql')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('allows only the configured origins outside the sandbox default', async () => {
    const strict = await startTestApp({
      databaseOf: t,
      workers: false,
      config: { cors: { origins: ['https://portal.example.test'], anyLocalhost: false } },
    });
    try {
      const allowed = await strict.rest
        .raw()
        .options('/graphql')
        .set('Origin', 'https://portal.example.test')
        .set('Access-Control-Request-Method', 'POST');
      expect(allowed.headers['access-control-allow-origin']).toBe('https://portal.example.test');
      const refused = await strict.rest
        .raw()
        .options('/graphql')
        .set('Origin', PORTAL)
        .set('Access-Control-Request-Method', 'POST');
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await strict.close();
    }
  });
});

describe('security headers on every answer (D27)', () => {
  it.each(['/api/v1/languages', '/docs', '/', '/graphql', '/api/v1/nowhere'])('%s', async (path) => {
    const res = await t.rest.raw().get(path).set('Accept', 'text/html,application/json');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).not.toContain("'unsafe-eval'");
    // HSTS only where the service is served over HTTPS: production.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it("puts a fresh nonce on the explorer's one inline script", async () => {
    const res = await t.rest.raw().get('/graphql').set('Accept', 'text/html').expect(200);
    const nonce = /'nonce-([^']+)'/.exec(res.headers['content-security-policy'])![1];
    expect(res.text).toContain(`<script nonce="${nonce}">`);
  });
});
