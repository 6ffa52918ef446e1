import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
beforeAll(async () => (t = await startTestApp()));
afterAll(() => t.close());

describe('GET /openapi.json', () => {
  it('serves the OpenAPI 3.1 document with this deployment as its server', async () => {
    const res = await t.rest.get('/api/v1/openapi.json').expect(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.servers).toEqual([{ url: 'http://127.0.0.1:3000/api/v1' }]);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/languages', '/pricing', '/me']));
  });

  it('documents only what the service really answers: no documented operation is an unknown route', async () => {
    const { body: doc } = await t.rest.get('/api/v1/openapi.json');
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) {
        const concrete = `/api/v1${path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000')}`;
        const res = await t.rest.raw()[method as 'get'](concrete);
        // 404 would mean the route is missing (a missing resource answers 404 too, but only behind auth: 401 first).
        expect([res.status, method, path]).not.toEqual([404, method, path]);
        expect(res.status).not.toBe(405);
      }
    }
  });

  it('gives every operation an id, a summary and the server-error answer', async () => {
    const { body: doc } = await t.rest.get('/api/v1/openapi.json');
    for (const item of Object.values(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
      for (const operation of Object.values(item)) {
        expect(operation.operationId).toEqual(expect.any(String));
        expect(operation.summary).toEqual(expect.any(String));
        expect(operation.responses).toHaveProperty('500');
      }
    }
  });
});
