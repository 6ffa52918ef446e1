import { getIntrospectionQuery } from 'graphql';
import { Agent } from 'node:http';
import { gzipSync } from 'node:zlib';
import { pdf } from '../helpers/documents';
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { UNDECODABLE_BODIES } from '../helpers/hostile';
import { postPieces } from '../helpers/raw-post';
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
    const res = await t.rest
      .raw()
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .send(`{"query":"${'a'.repeat(1_100_000)}"}`)
      .expect(413);
    expect(res.body).toEqual({ message: 'The request body is too large.' });
  });

  const postRaw = (pieces: (string | Buffer)[], headers: Record<string, string>, agent?: Agent) =>
    postPieces(`${t.url}/graphql`, pieces, headers, agent);

  it('reads JSON bodies as body-parser does, whichever way they are sent', async () => {
    const query = JSON.stringify({ query: '{ languages { code } }' });
    const answered = async (body: string | Buffer, headers: Record<string, string>) => {
      const res = await postRaw([body], headers);
      return res.status === 200 && JSON.parse(res.body).data.languages.length > 0;
    };
    // The short path: UTF-8 said plainly or not at all, a byte-order mark allowed.
    expect(await answered(query, { 'Content-Type': 'application/json' })).toBe(true);
    expect(await answered(query, { 'Content-Type': 'application/json; charset="UTF-8"' })).toBe(true);
    expect(await answered(`\uFEFF${query}`, { 'Content-Type': 'application/json' })).toBe(true);
    // The general path: a compressed body is inflated, another charset refused.
    expect(await answered(gzipSync(query), { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })).toBe(
      true,
    );
    const latin1 = await postRaw([query], { 'Content-Type': 'application/json; charset=latin1' });
    expect([latin1.status, JSON.parse(latin1.body)]).toEqual([415, { message: 'unsupported charset "LATIN1"' }]);
    // A top-level value that is not an object or an array is malformed, on both paths.
    for (const type of ['application/json', 'application/json;charset=utf-16']) {
      for (const body of ['null', '"query"', '42', '   ']) {
        expect(
          (await t.rest.raw().post('/api/v1/quotes').set('Content-Type', type).send(body).expect(400)).body,
        ).toEqual({ message: 'Malformed JSON body.' });
      }
    }
  });

  it('refuses a JSON body nested past 64 levels with 400 on both paths and both doors, idempotent POSTs included', async () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const deep = (levels: number) => `{"query":"{ languages { code } }","variables":{"x":${nested(levels - 2)}}}`;
    const refusal = { message: 'The JSON body nests deeper than 64 levels.' };
    for (const levels of [65, 3000, 200_000]) {
      const plain = await postRaw([deep(levels)], { 'Content-Type': 'application/json' });
      expect([plain.status, JSON.parse(plain.body)]).toEqual([400, refusal]);
      const gzipped = await postRaw([gzipSync(deep(levels))], {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
      });
      expect([gzipped.status, JSON.parse(gzipped.body)]).toEqual([400, refusal]);
      // Before authentication and the idempotency fingerprint, which would otherwise walk it.
      const rest = await t.rest
        .raw()
        .post('/api/v1/quotes')
        .set('Idempotency-Key', `deep-${levels}`)
        .set('Content-Type', 'application/json')
        .send(`{"file_ids":${nested(levels - 1)}}`);
      expect([rest.status, rest.body]).toEqual([400, refusal]);
    }
    // 64 levels are read: GraphQL answers (it ignores an unused variable's value).
    expect((await postRaw([deep(64)], { 'Content-Type': 'application/json' })).status).toBe(200);
  });

  it('answers a body that does not decompress 400 on both doors, multipart bodies included', async () => {
    const malformed = { message: 'Malformed request body.' };
    const { key } = await createApprovedAccount(t, await createStaffToken(t));
    for (const { encoding, body } of UNDECODABLE_BODIES) {
      for (const path of ['/graphql', '/api/v1/quotes', '/api/v1/languages']) {
        const res = await postPieces(`${t.url}${path}`, [body], {
          'Content-Type': 'application/json',
          'Content-Encoding': encoding,
        });
        expect([path, encoding, res.status, JSON.parse(res.body)]).toEqual([path, encoding, 400, malformed]);
      }
      // An upload on either door: the multipart readers are told of the coding too.
      for (const path of ['/graphql', '/api/v1/files']) {
        const headers = {
          'Content-Type': 'multipart/form-data; boundary=x',
          'Content-Encoding': encoding,
          'Apollo-Require-Preflight': 'true',
          Authorization: `Bearer ${key}`,
        };
        const res = await postPieces(`${t.url}${path}`, [body], headers);
        expect([path, encoding, res.status, JSON.parse(res.body)]).toEqual([path, encoding, 400, malformed]);
      }
    }
    // A compressed upload that does decompress is read as sent.
    const document = await pdf(['Hello']);
    const form = Buffer.concat([
      Buffer.from(
        '--x\r\nContent-Disposition: form-data; name="file"; filename="hello.pdf"\r\nContent-Type: application/pdf\r\n\r\n',
      ),
      document,
      Buffer.from('\r\n--x--\r\n'),
    ]);
    const uploaded = await postPieces(`${t.url}/api/v1/files`, [gzipSync(form)], {
      'Content-Type': 'multipart/form-data; boundary=x',
      'Content-Encoding': 'gzip',
      Authorization: `Bearer ${key}`,
    });
    expect([uploaded.status, JSON.parse(uploaded.body).data.size_bytes]).toEqual([201, document.length]);
  });

  it('refuses a chunked JSON body over the limit with 413 and keeps the connection usable', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const json = { 'Content-Type': 'application/json' };
      const tooLarge = await postRaw(
        ['{"query":"', ...Array.from({ length: 20 }, () => 'a'.repeat(64 * 1024)), '"}'],
        json,
        agent,
      );
      expect([tooLarge.status, JSON.parse(tooLarge.body)]).toEqual([
        413,
        { message: 'The request body is too large.' },
      ]);
      const next = await postRaw(['{"query":"{ languages { code } }"}'], json, agent);
      expect(next.status).toBe(200);
      expect(next.socket).toBe(tooLarge.socket);
    } finally {
      agent.destroy();
    }
  });

  it('answers a JSON operation sent a form or multipart body 415, creating nothing (D25)', async () => {
    const staff = await createStaffToken(t);
    const { key } = await createApprovedAccount(t, staff);
    const form = await t.rest
      .raw()
      .post('/api/v1/quotes')
      .set('Authorization', `Bearer ${key}`)
      .type('form')
      .send('source_language=en&target_language=es&service_type=certified')
      .expect(415);
    expect(form.body).toEqual({ message: 'Unsupported media type: send application/json.' });
    const multipart = await t.rest
      .raw()
      .put('/api/v1/orders/0b6f7a4e-2c1d-4f8a-9e3b-5d7c1a2b3c4d/shipping_address')
      .set('Authorization', `Bearer ${key}`)
      .field('name', 'A')
      .expect(415);
    expect(multipart.body).toEqual({ message: 'Unsupported media type: send application/json.' });
    // A type no operation reads is refused before any operation is matched, advising the types integrators send.
    const text = await t.rest
      .raw()
      .post('/api/v1/quotes')
      .set('Authorization', `Bearer ${key}`)
      .type('text/plain')
      .send('hello')
      .expect(415);
    expect(text.body).toEqual({
      message: 'Unsupported media type: send application/json (multipart/form-data to upload a file).',
    });
    // Without credentials the answer is still 401 first: the media type is the operation's concern.
    await t.rest.raw().post('/api/v1/quotes').type('form').send('a=b').expect(401);
    const quotes = await t.rest.get('/api/v1/quotes', key).expect(200);
    expect(quotes.body.meta.total).toBe(0);
  });

  it('answers a wrong method on a known path 405 with Allow', async () => {
    const res = await t.rest.delete('/api/v1/me').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body).toEqual({
      message: 'The DELETE method is not supported for this route. Supported methods: GET, HEAD.',
    });
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
    expect(res.body.errors).toEqual([
      {
        message: 'Server Error.',
        locations: expect.any(Array),
        path: ['pricing'],
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      },
    ]);
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

  it("answers the explorers' standard introspection query, and refuses introspection nested beyond its limit", async () => {
    const standard = await t.rest.raw().post('/graphql').send({ query: getIntrospectionQuery() });
    expect(standard.body.errors).toBeUndefined();
    expect(standard.body.data.__schema.queryType.name).toBe('Query');
    const nest = (levels: number) =>
      `{ __schema { types { fields { type { ${'ofType { '.repeat(levels - 5)}name${' }'.repeat(levels - 5)} } } } } }`;
    const deep = await t.rest
      .raw()
      .post('/graphql')
      .send({ query: nest(17) });
    expect(deep.body.errors[0].message).toBe('Introspection depth 17 exceeds the limit of 16.');
    expect(deep.body.data).toBeUndefined();
    expect(
      (
        await t.rest
          .raw()
          .post('/graphql')
          .send({ query: nest(16) })
      ).body.errors,
    ).toBeUndefined();
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
    const allowed = await t.rest
      .raw()
      .get('/graphql')
      .query({ query: '{ languages { code } }' })
      .set('Apollo-Require-Preflight', 'true');
    expect(allowed.status).toBe(200);
  });
});
