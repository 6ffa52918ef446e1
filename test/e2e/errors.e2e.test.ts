import { getIntrospectionQuery } from 'graphql';
import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let broken: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  // The same app with one service failing the way a bug would: with an internal message that must not leak.
  broken = await startTestApp({
    databaseOf: t,
    adjust: (services) => {
      services.catalog.pricing = async () => {
        throw new Error('relation "service_rates" does not exist at Object.<anonymous> (/src/secret.ts:1:1)');
      };
    },
  });
});
afterAll(async () => {
  await broken.close();
  await t.close();
});

describe('REST error shapes (D2)', () => {
  it('answers unknown paths 404 with the plain body, inside and outside /api/v1', async () => {
    for (const path of ['/api/v1/nope', '/api/v1/orders-typo/1', '/nope', '/api/v2/languages']) {
      const res = await t.rest.get(path).expect(404);
      expect(res.body).toEqual({ message: 'Not found.' });
    }
  });

  it('answers a body that is not JSON with 400', async () => {
    const res = await t.rest
      .raw()
      .post('/api/v1/languages')
      .set('Content-Type', 'application/json')
      .send('{"broken": ')
      .expect(400);
    expect(res.body).toEqual({ message: 'Malformed JSON body.' });
  });

  it('answers an over-size JSON body with 413 and a JSON message', async () => {
    const res = await t.rest.raw().post('/graphql').set('Content-Type', 'application/json').send(`{"query":"${'a'.repeat(1_100_000)}"}`).expect(413);
    expect(res.body).toEqual({ message: 'The request body is too large.' });
  });

  it('answers a wrong method on a known path 405 with Allow', async () => {
    const res = await t.rest.delete('/api/v1/me').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body).toEqual({ message: 'The DELETE method is not supported for this route. Supported methods: GET, HEAD.' });
  });

  it('answers 500 with a request id and nothing of the failure itself', async () => {
    const res = await broken.rest.get('/api/v1/pricing').expect(500);
    expect(res.body).toEqual({ message: 'Server Error.', request_id: res.headers['x-request-id'] });
    expect(res.text).not.toMatch(/service_rates|secret|at Object/);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('X-Request-Id', () => {
  it('is generated for every response', async () => {
    const res = await t.rest.get('/api/v1/languages').expect(200);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await t.rest.get('/nope');
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes a sane incoming id and replaces anything else', async () => {
    const echoed = await t.rest.get('/api/v1/languages').set('X-Request-Id', 'client-trace_42:a.b').expect(200);
    expect(echoed.headers['x-request-id']).toBe('client-trace_42:a.b');
    for (const insane of ['has spaces', 'x'.repeat(129), '<script>']) {
      const res = await t.rest.get('/api/v1/languages').set('X-Request-Id', insane).expect(200);
      expect(res.headers['x-request-id']).not.toBe(insane);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('GraphQL error shapes (D14)', () => {
  it('hides unexpected failures behind INTERNAL_SERVER_ERROR with no stack trace', async () => {
    const res = await broken.rest.raw().post('/graphql').send({ query: '{ pricing { addons { code } } }' });
    expect(res.body.errors).toEqual([{ message: 'Server Error.', locations: expect.any(Array), path: ['pricing'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
    expect(res.text).not.toMatch(/service_rates|secret|stacktrace/);
  });

  it('reports syntax and schema errors with their codes', async () => {
    const syntax = await t.rest.raw().post('/graphql').send({ query: '{ languages { code ' });
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    const unknown = await t.rest.raw().post('/graphql').send({ query: '{ languages { nope } }' });
    expect(unknown.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(JSON.stringify(unknown.body)).not.toContain('stacktrace');
  });

  it('answers the explorers\' standard introspection query, and refuses introspection nested beyond its limit', async () => {
    const standard = await t.rest.raw().post('/graphql').send({ query: getIntrospectionQuery() });
    expect(standard.body.errors).toBeUndefined();
    expect(standard.body.data.__schema.queryType.name).toBe('Query');
    const nest = (levels: number) => `{ __schema { types { fields { type { ${'ofType { '.repeat(levels - 5)}name${' }'.repeat(levels - 5)} } } } } }`;
    const deep = await t.rest.raw().post('/graphql').send({ query: nest(17) });
    expect(deep.body.errors[0].message).toBe('Introspection depth 17 exceeds the limit of 16.');
    expect(deep.body.data).toBeUndefined();
    expect((await t.rest.raw().post('/graphql').send({ query: nest(16) })).body.errors).toBeUndefined();
  });

  it('refuses documents selecting too many fields, fragments counted where they are spread', async () => {
    const fragment = 'fragment L on Language { code name }';
    const wide = `{ ${Array.from({ length: 170 }, (_, i) => `l${i}: languages { ...L }`).join(' ')} } ${fragment}`;
    const res = await t.rest.raw().post('/graphql').send({ query: wide });
    expect(res.body.errors[0].message).toBe('Query selects 510 fields, more than the limit of 500.');
    const fits = `{ ${Array.from({ length: 160 }, (_, i) => `l${i}: languages { ...L }`).join(' ')} } ${fragment}`;
    expect((await t.rest.raw().post('/graphql').send({ query: fits })).body.errors).toBeUndefined();
  });

  it('blocks requests a browser could send cross-site without a preflight (CSRF prevention)', async () => {
    const res = await t.rest.raw().get('/graphql').query({ query: '{ languages { code } }' });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/CSRF/);
    const allowed = await t.rest.raw().get('/graphql').query({ query: '{ languages { code } }' }).set('Apollo-Require-Preflight', 'true');
    expect(allowed.status).toBe(200);
  });
});
