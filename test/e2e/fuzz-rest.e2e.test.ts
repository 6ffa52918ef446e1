import fc from 'fast-check';
import type { Response, Test } from 'supertest';
import type { OpenApiDocument } from '../../src/api/rest/openapi/document';
import { docx, pdf, png, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import {
  FUZZ_SEED,
  IMPOSSIBLE_DATES,
  badCredential,
  deeplyNested,
  hostilePathSegment,
  hostileString,
  hostileValue,
  isUnstorable,
  percentEncode,
  undecodableBody,
  unstorableText,
} from '../helpers/hostile';
import { assertMatchesOpenApi } from '../helpers/openapi-validator';
import { postPieces } from '../helpers/raw-post';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 11 / D25: every REST operation of the served OpenAPI document, fed generated bodies, query strings
 * and path ids, good and hostile. Whatever arrives: no 5xx, every error body in D2's shapes, every response
 * valid against the document. Fixed seed, bounded count.
 */
type Json = Record<string, unknown>;
type Schema = Json & {
  $ref?: string;
  enum?: unknown[];
  const?: unknown;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
};
type Operation = {
  operationId: string;
  tags?: string[];
  parameters?: (Json & { $ref?: string })[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};

const MIN_REQUESTS = 3000;
let sent = 0;
let t: TestApp;
let alice: TestAccount;
let doc: OpenApiDocument;
/** Ids of real resources per path template, so generated requests also reach the success paths. */
const good: Record<string, string[]> = {};

beforeAll(async () => {
  // No background jobs: quotes analyse their files on demand, and nothing runs beside the requests.
  t = await startTestApp({ workers: false });
  const staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
  doc = (await t.rest.get('/api/v1/openapi.json').expect(200)).body;
  const files = [
    await uploadFile(t, alice.key, await docx({ paragraphs: [words(300)] }), 'a.docx'),
    await uploadFile(t, alice.key, await pdf([words(40)]), 'b.pdf'),
    await uploadFile(t, alice.key, png(), 'scan.png'),
  ].map((file) => file.id);
  const quote = async () =>
    (
      await t.rest
        .post(
          '/api/v1/quotes',
          { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [files[0]] },
          alice.key,
        )
        .expect(201)
    ).body.data.id as string;
  const quotes = [await quote(), await quote(), await quote()];
  const converted = (await t.rest.post(`/api/v1/quotes/${await quote()}/convert`, {}, alice.key).expect(201)).body;
  const copies = {
    source_language: 'es',
    target_language: 'en',
    service_type: 'standard',
    file_ids: [files[0]],
    addons: [{ code: 'hard_copy' }],
  };
  const withCopies = (await t.rest.post('/api/v1/quotes', copies, alice.key).expect(201)).body.data.id as string;
  const shipped = (await t.rest.post(`/api/v1/quotes/${withCopies}/convert`, {}, alice.key).expect(201)).body.data
    .id as string;
  const booking = {
    source_language: 'es',
    target_language: 'en',
    mode: 'video_remote',
    scheduled_at: '2031-01-15T10:00:00Z',
    duration_hours: 2,
  };
  const bookings = [
    (await t.rest.post('/api/v1/interpretation-bookings', booking, alice.key).expect(201)).body.data.id,
  ];
  good['/files/{id}'] = files;
  good['/files/{id}/download'] = files;
  good['/quotes/{id}'] = quotes;
  good['/quotes/{id}/convert'] = quotes;
  good['/orders/{id}'] = [converted.data.id];
  good['/orders/{id}/cancel'] = [converted.data.id];
  good['/orders/{id}/shipping_address'] = [shipped];
  good['/interpretation-bookings/{id}'] = bookings;
  good['/interpretation-bookings/{id}/cancel'] = bookings;
  const checkout = new URL(converted.provider_approval_url).pathname.split('/').pop()!;
  for (const suffix of ['', '/pay', '/cancel']) good[`/sandbox/checkout/{providerOrderId}${suffix}`] = [checkout];
  good.file_ids = files.slice(0, 2); // the counted ones: a quote of them needs no unit_count
});
afterAll(() => t.close());

const resolve = (schema: Schema): Schema =>
  schema.$ref ? resolve((doc.components.schemas as Record<string, Schema>)[schema.$ref.split('/').pop()!]) : schema;

/** Values that satisfy the business rules as well as the schema, by field name, so some requests succeed. */
const plausible: Record<string, fc.Arbitrary<unknown>> = {
  source_language: fc.constantFrom('es', 'ES-mx', 'zh-Hant', 'ase', 'xx'),
  target_language: fc.constantFrom('en', 'fr', 'pt-BR'),
  scheduled_at: fc.constantFrom(
    '2031-03-01T09:30:00-05:00',
    '2030-12-01T09:30:00.123456Z',
    '2028-02-29T12:00:00+01:00',
    ...IMPOSSIBLE_DATES,
  ),
  location: fc.constantFrom('100 Court St, Room 4', 'Line one\nLine two\tdesk 3'),
  redirect_url: fc.constantFrom('https://portal.example/done', 'http://localhost/x?y=1'),
  code: fc.constantFrom('notarization', 'hard_copy', 'rush_2h'),
  country: fc.constantFrom('US', 'fr', 'XX'),
  unit_count: fc.integer({ min: 1, max: 50 }),
};

/** A valid value of `schema` (by the business rules too, mostly), for field `name`. */
function valueOf(schema: Schema, name: string): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (name === 'file_ids') return fc.subarray(good.file_ids, { minLength: 1 });
  if (plausible[name]) return plausible[name];
  if (s.enum) return fc.constantFrom(...s.enum);
  if ('const' in s) return fc.constant(s.const);
  if (s.type === 'integer')
    return fc.integer({ min: (s.minimum as number) ?? -100, max: (s.maximum as number) ?? 1000 });
  if (s.type === 'number') return fc.integer({ min: 1, max: 1200 }).map((hundredths) => hundredths / 100);
  if (s.type === 'array') return fc.array(valueOf(s.items ?? {}, name), { maxLength: 3 });
  if (s.type === 'object' || s.properties) return objectOf(s);
  return fc.string({ maxLength: 30 });
}

function objectOf(schema: Schema): fc.Arbitrary<Json> {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([key, value]) => [key, valueOf(value, key)]),
  );
  return fc.record(properties, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
}

/** A valid object with exactly one field made hostile: the likeliest way for bad text to reach the database. */
function oneFieldHostile(schema: Schema): fc.Arbitrary<Json> {
  const names = Object.keys(schema.properties ?? {});
  if (!names.length) return objectOf(schema);
  return fc
    .tuple(objectOf(schema), fc.constantFrom(...names), hostileValue)
    .map(([object, name, value]) => ({ ...object, [name]: value }));
}

interface Shot {
  path: string;
  query: string;
  body?:
    | { type: string; content: string | Buffer }
    | { multipart: { file?: Buffer; filename: string; fields: Record<string, string> } };
  auth: 'alice' | 'none' | 'garbage';
}

const queryString = (operation: Operation): fc.Arbitrary<string> => {
  const params = (operation.parameters ?? []).filter((p) => p.in === 'query') as (Json & {
    name: string;
    schema: Schema;
  })[];
  const value = (p: { name: string; schema: Schema }) =>
    fc.oneof({ weight: 2, arbitrary: valueOf(p.schema, p.name) }, hostileValue);
  const known = params.map((p) =>
    fc.option(
      value(p).map((v) => `${p.name}=${encodeQueryValue(v)}`),
      { nil: undefined },
    ),
  );
  const extra = fc.array(
    fc.tuple(hostilePathSegment, hostilePathSegment).map(([k, v]) => `${k}=${v}`),
    { maxLength: 2 },
  );
  return fc
    .tuple(fc.tuple(...known), extra)
    .map(([parts, more]) => [...parts.filter((p): p is string => p !== undefined), ...more].join('&'));
};

const encodeQueryValue = (value: unknown): string =>
  typeof value === 'string' ? percentEncode(value) : percentEncode(JSON.stringify(value) ?? '');

const pathOf = (template: string): fc.Arbitrary<string> => {
  if (!template.includes('{')) return fc.constant(template);
  const ids = good[template] ?? [];
  const segment = ids.length
    ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...ids) }, { weight: 3, arbitrary: hostilePathSegment })
    : hostilePathSegment;
  return segment.map((id) => template.replace(/\{[^}]+\}/, id));
};

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/json; charset=latin1',
  'application/xml',
  'application/x-www-form-urlencoded',
];

const bodyOf = (operation: Operation): fc.Arbitrary<Shot['body']> => {
  const content = operation.requestBody?.content ?? {};
  if (content['multipart/form-data']) {
    const file = fc.oneof(
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
      fc.constant(png()),
      fc.constant(Buffer.from('%PDF-1.7\n%broken')),
    );
    const fields = fc
      .record({ type: fc.oneof(fc.constant('source'), hostileString) }, { requiredKeys: [] })
      .map((record) => record as Record<string, string>);
    const filename = fc.oneof(fc.constant('scan.png'), hostileString);
    return fc.oneof(
      fc.record({ multipart: fc.record({ file: fc.option(file, { nil: undefined }), filename, fields }) }),
      fc.constant({ type: 'application/json', content: '{"file":"aGVsbG8="}' }),
    );
  }
  const schema = content['application/json']?.schema ?? { type: 'object', properties: {} };
  const json = fc.oneof(
    { weight: 3, arbitrary: objectOf(resolve(schema)) },
    { weight: 6, arbitrary: oneFieldHostile(resolve(schema)) },
    { weight: 1, arbitrary: fc.dictionary(hostileString, hostileValue, { maxKeys: 3 }) },
    { weight: 1, arbitrary: hostileValue },
  );
  return fc.oneof(
    {
      weight: 12,
      arbitrary: json.map((value) => ({ type: 'application/json', content: JSON.stringify(value) ?? 'null' })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...CONTENT_TYPES), hostileString)
        .map(([type, text]) => ({ type, content: text })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{"broken": ', '[1,2', '\u0000', deeplyNested(5000), `{"reference":"${'x'.repeat(1_100_000)}"}`)
        .map((text) => ({ type: 'application/json', content: text })),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
};

async function send(method: string, shot: Shot): Promise<Response> {
  sent += 1;
  const agent = t.rest.raw();
  let test: Test = (agent as unknown as Record<string, (url: string) => Test>)[method](
    `/api/v1${shot.path}${shot.query ? `?${shot.query}` : ''}`,
  );
  if (shot.auth === 'alice') test = test.set('Authorization', `Bearer ${alice.key}`);
  if (shot.auth === 'garbage') test = test.set('Authorization', 'Bearer ltk_test_nope');
  const body = shot.body;
  if (body && 'multipart' in body) {
    for (const [name, value] of Object.entries(body.multipart.fields)) test = test.field(name, value);
    if (body.multipart.file)
      test = test.attach('file', body.multipart.file, {
        filename: body.multipart.filename,
        contentType: 'application/octet-stream',
      });
  } else if (body) {
    test = test.set('Content-Type', body.type).send(body.content);
  }
  return test;
}

/** D2: `{message}` for every error, plus `errors` (field to messages) on a 422, plus `request_id` on a 500. */
function assertD2(res: Response): void {
  if (res.status < 400 || !String(res.headers['content-type']).startsWith('application/json')) return;
  const keys = Object.keys(res.body).sort();
  const expected = res.status === 422 ? ['errors', 'message'] : ['message'];
  if (JSON.stringify(keys) !== JSON.stringify(expected) || typeof res.body.message !== 'string')
    throw new Error(`not a D2 error body: ${res.text.slice(0, 300)}`);
  if (res.status === 404 && res.body.message !== 'Not found.') throw new Error(`404 with another message: ${res.text}`);
}

const JSON_LIMIT_BYTES = 1024 * 1024;

/** A path segment the service can name a resource by: valid percent-encoding of storable text. */
function decodesToText(segment: string): boolean {
  try {
    return !isUnstorable(decodeURIComponent(segment));
  } catch {
    return false;
  }
}

const holdsBadInput = (value: unknown): boolean =>
  typeof value === 'string'
    ? isUnstorable(value) || IMPOSSIBLE_DATES.includes(value)
    : typeof value === 'object' &&
      value !== null &&
      Object.entries(value).some(([key, item]) => isUnstorable(key) || holdsBadInput(item));

/**
 * What D2 and D25 require of this request whatever else it holds, in the order the service checks: the path,
 * the body's media type, size and syntax, then the fields the operation reads.
 */
function required(operation: Operation, shot: Shot): { status: number | '4xx'; why: string } | undefined {
  if (!shot.path.split('/').every(decodesToText))
    return { status: 404, why: 'a path that is not valid percent-encoding of text' };
  const body = shot.body;
  if (!body || 'multipart' in body || body.content.length === 0) return undefined;
  if (/charset=latin1/.test(body.type) || /^(text\/plain|application\/xml)/.test(body.type))
    return { status: 415, why: `a ${body.type} body` };
  if (!body.type.startsWith('application/json')) return undefined;
  if (Buffer.byteLength(body.content) > JSON_LIMIT_BYTES) return { status: 413, why: 'a body over 1 MB' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.content as string);
  } catch {
    return { status: 400, why: 'malformed JSON' };
  }
  if (!/^\s*[[{]/.test(body.content as string)) return { status: 400, why: 'JSON that is not an object or array' };
  if (operation.operationId === 'uploadFile' && shot.auth === 'alice')
    return { status: 415, why: 'JSON sent to the upload' };
  const fields = Object.keys(
    resolve(operation.requestBody?.content['application/json']?.schema ?? {}).properties ?? {},
  );
  const bad = fields.find((field) => holdsBadInput((parsed as Json)?.[field]));
  if (bad) return { status: '4xx', why: `${bad} holds control characters, a lone surrogate or an impossible date` };
  return undefined;
}

const operations = (): [string, string, Operation][] =>
  Object.entries(doc.paths as unknown as Record<string, Record<string, Operation>>).flatMap(([template, item]) =>
    Object.entries(item)
      // PayPal's pages only exist with PAYMENT_PROVIDER=paypal; this app runs the sandbox checkout.
      .filter(([, operation]) => !operation.tags?.includes('Payments'))
      .map(([method, operation]) => [template, method, operation] as [string, string, Operation]),
  );

describe('REST v1 under generated input (D25)', () => {
  it('covers every operation of the served document', () => {
    const ids = operations().map(([, , operation]) => operation.operationId);
    expect(ids.length).toBeGreaterThanOrEqual(20);
    expect(ids).toEqual(
      expect.arrayContaining(['createQuote', 'createBooking', 'uploadFile', 'getFile', 'sandboxCheckoutPay']),
    );
  });

  it('answers every generated request below 500, in D2 shapes, as the document says', async () => {
    for (const [template, method, operation] of operations()) {
      const shot = fc.record<Shot>({
        path: pathOf(template),
        query: queryString(operation),
        body: method === 'post' || method === 'put' ? bodyOf(operation) : fc.constant(undefined),
        auth: fc.constantFrom<Shot['auth']>('alice', 'alice', 'alice', 'alice', 'none', 'garbage'),
      });
      const runs = method === 'post' ? 200 : 110;
      await fc.assert(
        fc.asyncProperty(shot, async (s) => {
          const res = await send(method, s);
          try {
            if (res.status >= 500) throw new Error(`answered ${res.status}: ${res.text.slice(0, 300)}`);
            const rule = required(operation, s);
            const obeys = !rule || (rule.status === '4xx' ? res.status >= 400 : res.status === rule.status);
            if (!obeys)
              throw new Error(`${rule.why} must be ${rule.status}, answered ${res.status}: ${res.text.slice(0, 300)}`);
            assertD2(res);
            assertMatchesOpenApi(res);
          } catch (error) {
            throw new Error(
              `${operation.operationId} ${method.toUpperCase()} ${s.path}?${s.query}: ${(error as Error).message}`,
              { cause: error },
            );
          }
        }),
        { seed: FUZZ_SEED, numRuns: runs, endOnFailure: true },
      );
    }
  }, 180_000); // about 3,000 requests over every operation: 45 s on a quiet 2-core machine, far more beside other test runs

  it.each(['createQuote', 'createBooking'])(
    '%s refuses bad text in any text field with 422 naming it, and stores nothing',
    async (operationId) => {
      const [template, , operation] = operations().find(([, , candidate]) => candidate.operationId === operationId)!;
      const schema = resolve(operation.requestBody!.content['application/json'].schema);
      const textFields = Object.entries(schema.properties!)
        .filter(([, property]) => resolve(property).type === 'string' || resolve(property).enum)
        .map(([name]) => name);
      const badText = (field: string) =>
        field === 'scheduled_at' ? fc.oneof(unstorableText, fc.constantFrom(...IMPOSSIBLE_DATES)) : unstorableText;
      const nested = {
        addons: fc.tuple(
          fc.constant('addons.0.code'),
          unstorableText.map((code) => [{ code }]),
        ),
      };
      const cases = fc.oneof(
        fc.constantFrom(...textFields).chain((field) => fc.tuple(fc.constant(field), badText(field))),
        ...(operationId === 'createQuote' ? [nested.addons] : []),
      );
      const count = async () =>
        Number(
          (
            await t.orm.em
              .fork()
              .getConnection()
              .execute(`SELECT (SELECT count(*) FROM quotes) + (SELECT count(*) FROM interpretation_bookings) AS n`)
          )[0].n,
        );
      const before = await count();
      await fc.assert(
        fc.asyncProperty(objectOf(schema), cases, async (body, [field, value]) => {
          const sentBody = { ...body, [field.split('.')[0]]: value };
          const res = await send('post', {
            path: template,
            query: '',
            body: { type: 'application/json', content: JSON.stringify(sentBody) },
            auth: 'alice',
          });
          assertMatchesOpenApi(res);
          if (res.status !== 422 || !res.body.errors[field])
            throw new Error(`${JSON.stringify(sentBody)}: answered ${res.status} ${res.text.slice(0, 300)}`);
        }),
        { seed: FUZZ_SEED, numRuns: 150, endOnFailure: true },
      );
      expect(await count()).toBe(before);
    },
  );

  it('answers any body that does not decompress 400, JSON or multipart (D2)', async () => {
    await fc.assert(
      fc.asyncProperty(
        undecodableBody,
        fc.constantFrom('/quotes', '/files', '/interpretation-bookings'),
        async ({ encoding, body }, path) => {
          sent += 1;
          const type = path === '/files' ? 'multipart/form-data; boundary=x' : 'application/json';
          const res = await postPieces(`${t.url}/api/v1${path}`, [body], {
            'Content-Type': type,
            'Content-Encoding': encoding,
            Authorization: `Bearer ${alice.key}`,
          });
          if (res.status !== 400 || res.body !== '{"message":"Malformed request body."}')
            throw new Error(`${encoding} to ${path}: answered ${res.status} ${res.body.slice(0, 300)}`);
        },
      ),
      { seed: FUZZ_SEED, numRuns: 60, endOnFailure: true },
    );
  });

  it('answers bad credentials 401, each spending from the client address (D24)', async () => {
    let last = Infinity;
    await fc.assert(
      fc.asyncProperty(badCredential, fc.constantFrom('/orders', '/quotes', '/me'), async (authorization, path) => {
        sent += 1;
        const res = await t.rest
          .raw()
          .get(`/api/v1${path}`)
          .set('Authorization', authorization)
          .set('X-Forwarded-For', '192.0.2.90');
        const remaining = Number(res.headers['x-ratelimit-remaining']);
        // A clock minute's budget (D16): at the turn of the minute a fresh one starts, spent by this request alone.
        const freshWindow = Number(res.headers['x-ratelimit-limit']) - remaining <= 1;
        if (res.status !== 401 || !(remaining < last || freshWindow))
          throw new Error(`${authorization} on ${path}: answered ${res.status}, ${remaining} left after ${last}`);
        last = remaining;
      }),
      { seed: FUZZ_SEED, numRuns: 100, endOnFailure: true },
    );
  });

  it(`sent at least ${MIN_REQUESTS} requests`, () => expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS));
});
