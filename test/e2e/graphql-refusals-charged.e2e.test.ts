import { MAX_DOCUMENT_BYTES } from '../../src/api/graphql/document-admission';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { gqlRaw } from '../helpers/graphql-raw';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 33 / D36: GraphQL is paid for what it costs. A document over 64 KB is refused before it is parsed, a refused
 * document is charged its requested cost, costs read variables' defaults, and an answer nulled by an error is charged
 * what ran. The budget here is the production default, 120 a minute.
 */
let t: TestApp;
let alice: TestAccount;
const statements = new StatementLog();
beforeAll(async () => {
  t = await startTestApp({ workers: false, config: { rateLimitPerMinute: 120 }, onQuery: statements.record });
  alice = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(() => t.close());

let senders = 0;
/** Each anonymous sender from its own address, with a fresh budget (the loopback proxy's X-Forwarded-For is trusted). */
const anonymous = (query: string, from = `198.51.100.${++senders}`) =>
  gqlRaw(t.rest.raw(), query, { headers: { 'X-Forwarded-For': from } });
const remaining = (answer: { headers: Record<string, string> }) => Number(answer.headers['x-ratelimit-remaining']);

const certificates = (count: number) =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: certificate(code: "LTC-0000-0000") { code }`).join(' ')} }`;

describe('a document over 64 KB', () => {
  it('is refused with 413 before it is parsed, and empties its sender’s budget', async () => {
    const huge = certificates(15_000);
    expect(huge.length).toBeGreaterThan(700_000);
    const from = '203.0.113.50';
    const refused = await anonymous(huge, from);
    expect(refused.status).toBe(413);
    expect(refused.errors).toEqual([
      {
        message: `The GraphQL document is ${huge.length} bytes, more than the limit of ${MAX_DOCUMENT_BYTES}.`,
        extensions: { code: 'DOCUMENT_TOO_LARGE', bytes: huge.length, maxBytes: MAX_DOCUMENT_BYTES },
      },
    ]);
    expect(remaining(refused)).toBe(0);
    expect(statements.of(refused)).toEqual([]);
    // The next request of that address is refused before its document is read; another address is not held back.
    const next = await anonymous('{ languages { code } }', from);
    expect(next.status).toBe(429);
    expect(next.errors![0].extensions.code).toBe('RATE_LIMITED');
    expect((await anonymous('{ languages { code } }')).status).toBe(200);
  });

  it("is charged to a key's account, as every request of that key is", async () => {
    const bob = await createApprovedAccount(t, await createStaffToken(t));
    const refused = await gqlRaw(t.rest.raw(), certificates(2_000), { token: bob.key });
    expect(refused.status).toBe(413);
    expect(remaining(refused)).toBe(0);
    expect((await gqlRaw(t.rest.raw(), '{ me { id } }', { token: bob.key })).status).toBe(429);
  });

  it('counts bytes, not characters: 30,000 three-byte characters are too many', async () => {
    const refused = await anonymous(`{ __typename } # ${'€'.repeat(30_000)}`);
    expect(refused.status).toBe(413);
    expect(refused.errors![0].extensions).toMatchObject({ code: 'DOCUMENT_TOO_LARGE', bytes: 30_000 * 3 + 17 });
  });
});

describe('a refused document is charged its requested cost', () => {
  it('refused for its fields: a 60 KB document of aliases, at the cost it asked for', async () => {
    const aliases = certificates(1_250);
    expect(Buffer.byteLength(aliases)).toBeLessThan(MAX_DOCUMENT_BYTES);
    const refused = await anonymous(aliases);
    expect(refused.status).toBe(400);
    expect(refused.errors![0]).toMatchObject({
      message: 'Query selects 2500 fields, more than the limit of 500.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    // 1,250 certificates, and 25 units for their 2,500 fields.
    expect(refused.headers['x-ratelimit-cost-requested']).toBe('1275');
    expect(remaining(refused)).toBe(0);
  });

  it('over the per-query maximum: all that is left of the budget, not 1', async () => {
    const dave = await createApprovedAccount(t, await createStaffToken(t));
    const pages = '{ a: quotes(perPage: 60) { items { id } } b: quotes(perPage: 60) { items { id } } }';
    const refused = await gqlRaw(t.rest.raw(), pages, { token: dave.key });
    expect(refused.errors![0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', cost: 122, maxCost: 120 });
    expect(remaining(refused)).toBe(0);
    expect((await gqlRaw(t.rest.raw(), '{ me { id } }', { token: dave.key })).status).toBe(429);
  });

  it('refused for its fields: many small operations are counted together and charged as if each ran', async () => {
    const operations = Array.from({ length: 600 }, (_, i) => `query q${i} { languages { code } }`).join(' ');
    const refused = await anonymous(operations);
    expect(refused.status).toBe(400);
    expect(refused.errors).toEqual([
      expect.objectContaining({
        message: 'Query selects 1200 fields, more than the limit of 500.',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      }),
    ]);
    expect(refused.headers['x-ratelimit-cost-requested']).toBe('600');
    expect(remaining(refused)).toBe(0);
  });

  it('refused by the standard rules: its cost, not 1', async () => {
    const unknown = await anonymous('{ languages { code nope } pricing { services { serviceType } } }');
    expect(unknown.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(remaining(unknown)).toBe(120 - 3);
  });
});

describe('the cost of a query', () => {
  it("reads variables' default values, as execution does", async () => {
    const paged = 'query($pp: Int = 100) { quotes(perPage: $pp) { items { id addons { code } } } }';
    const refused = await gqlRaw(t.rest.raw(), paged, { token: alice.key });
    expect(refused.errors![0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', cost: 201, maxCost: 120 });
    const erin = await createApprovedAccount(t, await createStaffToken(t));
    const given = await gqlRaw(t.rest.raw(), paged, { token: erin.key, variables: { pp: 5 } });
    expect(given.errors).toBeUndefined();
    expect(given.extensions?.cost).toBe(11);
    const aliased =
      'query($pp: Int = 100) { a: quotes(perPage: $pp) { items { id addons { code } } } b: quotes(perPage: $pp) { items { id addons { code } } } }';
    expect((await gqlRaw(t.rest.raw(), aliased, { token: erin.key })).errors![0].extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      cost: 402,
    });
  });

  it('charges an answer whose data an error nulled what it asked for, never nothing', async () => {
    const carol = await createApprovedAccount(t, await createStaffToken(t));
    // `members` is refused to an API key; being non-null, its refusal nulls the whole answer, quotes included.
    const nulled = await gqlRaw(t.rest.raw(), '{ members { items { id } } quotes(perPage: 100) { items { id } } }', {
      token: carol.key,
    });
    expect(nulled.data).toBeNull();
    expect(nulled.errors![0].extensions.code).toBe('FORBIDDEN');
    expect(nulled.headers['x-ratelimit-cost-requested']).toBe('117');
    expect(nulled.headers['x-ratelimit-cost-actual']).toBe('117');
    expect(remaining(nulled)).toBe(3);
  });
});
