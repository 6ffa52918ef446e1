import { MAX_QUERY_COST } from '../../src/api/graphql/budget-plugin';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { png } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { gqlRaw } from '../helpers/graphql-raw';
import { earlyInWindow } from '../helpers/rate-window';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { StatementLog } from '../helpers/statement-log';

/** D24: what a GraphQL query costs, reported in `extensions.cost`, and the per-request maximum. */
let t: TestApp;
let alice: TestAccount;
const statements = new StatementLog();
beforeAll(async () => {
  t = await startTestApp({ workers: false, onQuery: statements.record });
  alice = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(() => t.close());

const ask = (query: string, variables?: Record<string, unknown>) =>
  gqlRaw(t.rest.raw(), query, { token: alice.key, variables });
const costOf = async (query: string, variables?: Record<string, unknown>) => {
  const answer = await ask(query, variables);
  expect(answer.errors).toBeUndefined();
  return answer.extensions?.cost;
};

describe('the cost of a query (D24)', () => {
  it('is at least 1, with scalars free and each object 1', async () => {
    expect(await costOf('{ __typename }')).toBe(1);
    expect(await costOf('{ me { id name email } }')).toBe(1);
  });

  it('multiplies the items of a page by perPage, its default, or a variable; lists inside items count per item', async () => {
    // orders 1 + 10 items x (the item 1 + its files 1) + pageInfo 1
    expect(await costOf('{ orders(perPage: 10) { items { id files { id } } pageInfo { total } } }')).toBe(22);
    expect(await costOf('{ orders { items { id files { id } } pageInfo { total } } }')).toBe(1 + 15 * 2 + 1);
    expect(await costOf('query($n: Int) { orders(perPage: $n) { items { id } } }', { n: 40 })).toBe(41);
    // The same document again with another size: a cost read from variables is never remembered.
    expect(await costOf('query($n: Int) { orders(perPage: $n) { items { id } } }', { n: 5 })).toBe(6);
  });

  it('adds up aliases and counts fragments (named and inline) where they are spread', async () => {
    expect(await costOf('{ a: orders(perPage: 10) { items { id } } b: orders(perPage: 5) { items { id } } }')).toBe(
      11 + 6,
    );
    const inline = '{ orders(perPage: 10) { items { files { id } } } }';
    expect(await costOf(inline)).toBe(21);
    expect(await costOf('{ orders(perPage: 10) { items { ...F } } } fragment F on Order { files { id } }')).toBe(21);
    expect(await costOf('{ orders(perPage: 10) { items { ... on Order { files { id } } } } }')).toBe(21);
    expect(
      await costOf(
        '{ a: orders(perPage: 10) { ...P } b: orders(perPage: 10) { ...P } } fragment P on OrderPage { items { files { id } } }',
      ),
    ).toBe(42);
  });
});

describe('the cost of a mutation (D24)', () => {
  it('is at least 1 for each, aliased or not: three deleteFile cost 3, as three REST deletes do', async () => {
    const ids = [];
    for (const name of ['a.png', 'b.png', 'c.png']) ids.push((await uploadFile(t, alice.key, png(), name)).id);
    await earlyInWindow(); // both counts in one budget window (D16)
    const before = Number((await ask('{ me { id } }')).headers['x-ratelimit-remaining']);
    const answer = await ask(`mutation { ${ids.map((id, i) => `d${i}: deleteFile(id: "${id}")`).join(' ')} }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ d0: true, d1: true, d2: true });
    expect(answer.extensions).toMatchObject({ cost: 3, actualCost: 3 });
    expect(Number(answer.headers['x-ratelimit-remaining'])).toBe(before - 3);
  });
});

describe('the width of a document (D36)', () => {
  it('charges each 100 selected fields 1, returned or not: 500 aliases of __typename cost 5, not 1', async () => {
    const wide = `{ ${Array.from({ length: 500 }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    await earlyInWindow(); // both counts in one budget window (D16)
    const before = Number((await ask('{ me { id } }')).headers['x-ratelimit-remaining']);
    const answer = await ask(wide);
    expect(answer.errors).toBeUndefined();
    expect(answer.extensions).toMatchObject({ cost: 5, actualCost: 5 });
    expect(Number(answer.headers['x-ratelimit-remaining'])).toBe(before - 5);
    // A page's fields are counted once, not once per item: 100 orders of 60 fields are the page and its items.
    const fields = Array.from({ length: 60 }, () => 'id').join(' ');
    expect(await costOf(`{ orders(perPage: 100) { items { ${fields} } } }`)).toBe(101);
  });
});

describe('the per-request maximum (D24)', () => {
  it("refuses the issue's query (120 aliases of a 100-order page with files) before any resolver runs", async () => {
    const aliases = Array.from(
      { length: 120 },
      (_, i) => `a${i}: orders(perPage: 100) { items { files { downloadUrl } } }`,
    );
    const refused = await ask(`{ ${aliases.join(' ')} }`);
    expect(refused.status).toBe(400);
    expect(refused.data).toBeUndefined();
    // 120 pages of 100 orders with their files, and 480 fields selected (D36).
    const cost = 120 * 201 + 4;
    expect(refused.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'QUERY_TOO_COMPLEX', cost, maxCost: MAX_QUERY_COST } }),
    ]);
    expect(refused.extensions?.cost).toBe(cost);
    // Only the key's look-up ran: no resolver reached the database.
    expect(statements.of(refused)).toHaveLength(1);
  });

  it('refuses over the maximum whatever the depth or alias count: one shallow field, or a few aliases', async () => {
    const one = await ask('{ orders(perPage: 1000) { items { id } } }');
    expect(one.errors?.[0]?.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', cost: 1001 });
    const few = await ask(
      `{ ${Array.from({ length: 11 }, (_, i) => `a${i}: orders(perPage: 100) { items { id } }`).join(' ')} }`,
    );
    expect(few.errors?.[0]?.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', cost: 11 * 101 });
    // Just under the maximum runs.
    expect(
      await costOf(
        `{ ${Array.from({ length: 9 }, (_, i) => `a${i}: orders(perPage: 100) { items { id } }`).join(' ')} }`,
      ),
    ).toBe(909);
  });
});
