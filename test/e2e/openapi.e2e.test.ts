import { startTestApp, type TestApp } from '../helpers/test-app';

/** Express's router as far as this test reads it: routes, and routers mounted without a path. */
interface Router {
  stack: { name: string; route?: { path: string; methods: Record<string, boolean> }; handle: Partial<Router> }[];
}

/** The methods and paths the REST API answers: the routers in the app's `/api/v1` router (`v1Router`), each route's own methods. */
function routesOf(app: { router: Router }): { method: string; path: string }[] {
  const v1 = app.router.stack.find((layer) => layer.name === 'router')!.handle as Router;
  const walk = (router: Router): { method: string; path: string }[] =>
    router.stack.flatMap((layer) => {
      if (layer.route)
        return Object.keys(layer.route.methods)
          .filter((method) => method !== '_all')
          .map((method) => ({ method, path: layer.route!.path }));
      return layer.name === 'router' ? walk(layer.handle as Router) : [];
    });
  return walk(v1);
}

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

  it('documents only routes that exist: every operation that needs a key answers 401 without one, never 404/405', async () => {
    // An unknown path answers 404 and a known path with a wrong method 405; a real route behind auth answers 401
    // first. Public operations (catalog, signed downloads, sandbox checkout) are exercised by their own suites.
    const { body: doc } = await t.rest.get('/api/v1/openapi.json');
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { security?: unknown[] }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (Array.isArray(operation.security) && operation.security.length === 0) continue;
        const concrete = `/api/v1${path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000')}`;
        const res = await t.rest.raw()[method as 'get'](concrete);
        expect([method, path, res.status]).toEqual([method, path, 401]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(8);
  });

  it('documents every route the API answers, each of its methods', async () => {
    const { body: doc } = await t.rest.get('/api/v1/openapi.json');
    const documented = Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    const answered = routesOf(t.app.express as unknown as { router: Router }).map(
      ({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`,
    );
    expect(answered.length).toBeGreaterThan(30);
    expect(answered.filter((route) => !documented.includes(route))).toEqual([]);
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
