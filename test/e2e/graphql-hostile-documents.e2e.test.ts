import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { gqlRaw, type RawGraphQLAnswer } from '../helpers/graphql-raw';
import { fragmentChain } from '../helpers/hostile';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { earlyInWindow } from '../helpers/rate-window';

/**
 * Issue 27 / D14, D24, D36: small anonymous documents that expand to billions of fields are refused by the limits
 * rule, measured in time linear in their size (CPU time is asserted in test/unit/graphql-walks.test.ts), before
 * the standard validation and before anything reads the database; each is charged its requested cost, which empties
 * its sender's budget.
 */
let t: TestApp;
const statements = new StatementLog();
beforeAll(async () => {
  t = await startTestApp({ workers: false, onQuery: statements.record });
});
afterAll(() => t.close());

/** Each anonymous sender its own address (the service trusts the loopback proxy's X-Forwarded-For). */
let senders = 0;
const anonymous = (query: string, from = `198.51.100.${++senders}`) =>
  gqlRaw(t.rest.raw(), query, { headers: { 'X-Forwarded-For': from } });

function expectRefusedForFields(answer: RawGraphQLAnswer, fields: number): void {
  expect(answer.status).toBe(400);
  expect(answer.data).toBeUndefined();
  expect(answer.errors).toEqual([
    expect.objectContaining({
      message: `Query selects ${fields} fields, more than the limit of 500.`,
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    }),
  ]);
  // Charged its requested cost from its sender's fresh budget (D36); nothing was read.
  const cost = Number(answer.headers['x-ratelimit-cost-requested']);
  expect(cost).toBeGreaterThanOrEqual(1);
  const limit = Number(answer.headers['x-ratelimit-limit']);
  expect(answer.headers['x-ratelimit-remaining']).toBe(String(Math.max(0, limit - cost)));
  expect(statements.of(answer)).toEqual([]);
}

describe('a chain of fragments each spreading the one before twice (issue 27)', () => {
  it.each([24, 40])('of %i levels is refused', async (levels) => {
    const document = fragmentChain(levels);
    expect(document.length).toBeLessThan(2000);
    expectRefusedForFields(await anonymous(document), 2 ** (levels + 1));
  });

  it('is refused spread under aliases', async () => {
    const aliased = fragmentChain(30, {
      on: 'Language',
      first: 'code name',
      query: (top) => `{ a: languages { ${top} } b: languages { ${top} } }`,
    });
    expectRefusedForFields(await anonymous(aliased), 2 * (1 + 2 ** 31));
  });

  it('is refused spread inside inline fragments', async () => {
    const inline = fragmentChain(40, { spread: (name) => `... on Query { ...${name} } ... { ...${name} }` });
    expectRefusedForFields(await anonymous(inline), 2 ** 41);
  });
});

it('answers a legal document nested 40 fragments deep, through inline fragments, with introspection', async () => {
  const first = 'languages { code } __type(name: "Order") { fields { type { ofType { ofType { name } } } } }';
  const deep = await anonymous(fragmentChain(40, { first, spread: (name) => `... { ...${name} } __typename` }));
  expect(deep.status).toBe(200);
  expect(deep.errors).toBeUndefined();
  expect(deep.data).toMatchObject({
    __typename: 'Query',
    languages: expect.arrayContaining([{ code: 'en' }]),
    __type: { fields: expect.any(Array) },
  });
  expect(deep.extensions?.cost).toBe(1);
});

it('spends a number from the budget when a perPage variable is not an integer (the variable is refused)', async () => {
  const alice = await createApprovedAccount(t, await createStaffToken(t));
  const page = 'query($n: Int) { orders(perPage: $n) { items { id } } }';
  // Both requests in one budget window (D16), so the second's remaining follows the first's.
  await earlyInWindow();
  const refused = await gqlRaw(t.rest.raw(), page, { token: alice.key, variables: { n: 'x' } });
  expect(refused.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
  expect(refused.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  const next = await gqlRaw(t.rest.raw(), '{ me { id } }', { token: alice.key });
  expect(Number(next.headers['x-ratelimit-remaining'])).toBe(Number(refused.headers['x-ratelimit-remaining']) - 1);
});
