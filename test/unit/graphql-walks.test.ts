import 'reflect-metadata';
import {
  buildSchema,
  getIntrospectionQuery,
  Kind,
  parse,
  validate,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { queryCost } from '../../src/api/graphql/query-cost';
import { queryLimits } from '../../src/api/graphql/query-limits';
import { buildGraphQLSchema } from '../../src/api/graphql/schema';
import { fragmentChain } from '../helpers/hostile';

/** Issue 27 / D14, D24: the limit and cost walks over documents as written, fragments measured once each. */
let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildGraphQLSchema();
});

/** This service has no page inside a page; the walks must still multiply nested pages (D24). */
const nestedPages = buildSchema(`
  type Query { page(perPage: Int): Page! }
  type Page { items: [Item!]! info: Info! }
  type Info { total: Int }
  type Item { id: ID kids: [Item!]! parent: Item sub(perPage: Int): Page! }
`);

/** With every limit at 0, the limit rule reports each measure in its message. */
const measures = (text: string, over = schema) =>
  validate(over, parse(text), [queryLimits({ maxDepth: 0, maxIntrospectionDepth: 0, maxFields: 0 })]).map(
    (error) => error.message,
  );

const costOf = (text: string, variables?: Record<string, unknown>, over = schema) => {
  const document = parse(text);
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  )!;
  return queryCost({ schema: over, document, operation, variables }).requested;
};

describe('the walks give the numbers they gave before fragments were measured once', () => {
  it('counts a fragment used twice, at two depths, where it is spread', () => {
    const twice =
      '{ me { ...A } orders(perPage: 10) { items { account { ...A } files { ...F } } } a: orders { items { files { ...F } } } } fragment A on Account { id name } fragment F on OrderFile { id name }';
    expect(measures(twice)).toEqual([
      'Query depth 4 exceeds the limit of 0.',
      'Query selects 16 fields, more than the limit of 0.',
    ]);
    // me 1 + (orders 1 + 10 x (item 1 + account 1 + files 1)) + (orders 1 + 15 x (item 1 + files 1))
    expect(costOf(twice)).toBe(1 + 31 + 31);
  });

  it('multiplies nested pages by their perPage variables, inside fragments and inline fragments', () => {
    const nested =
      'query($n: Int, $m: Int) { page(perPage: $n) { items { sub(perPage: $m) { items { ...I } info { total } } ... on Item { kids { ...I } } } } } fragment I on Item { id kids { id } sub { items { id parent { id } } } }';
    expect(measures(nested, nestedPages)).toEqual([
      'Query depth 8 exceeds the limit of 0.',
      'Query selects 23 fields, more than the limit of 0.',
    ]);
    // I: kids 1 + sub (1 + 15 x (item 1 + parent 1)) = 32, fixed whatever the page size around it.
    // page: 1 + n x (item 1 + sub (1 + m x (1 + 32) + info 1) + kids (1 + 32))
    expect(costOf(nested, { n: 7, m: 3 }, nestedPages)).toBe(1 + 7 * (1 + (1 + 3 * 33 + 1) + 33));
    expect(costOf(nested, { n: 2 }, nestedPages)).toBe(1 + 2 * (1 + (1 + 15 * 33 + 1) + 33));
  });

  it("measures the explorers' introspection query, whose fragments are spread many times", () => {
    expect(measures(getIntrospectionQuery())).toEqual([
      'Query depth 1 exceeds the limit of 0.',
      'Introspection depth 15 exceeds the limit of 0.',
      'Query selects 220 fields, more than the limit of 0.',
    ]);
    // `__schema` is no field of Query's: introspection, over a schema that does not change, costs the minimum.
    expect(costOf(getIntrospectionQuery())).toBe(1);
  });
});

/** CPU time, in milliseconds, that `work` takes. */
function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

describe('the cost of a mutation (D24)', () => {
  it('is at least 1 for each mutation, one answering a scalar included, and that part is flat', () => {
    const document = parse('mutation { a: deleteFile(id: "x") b: deleteFile(id: "y") c: signOut }');
    const operation = document.definitions[0] as OperationDefinitionNode;
    expect(queryCost({ schema, document, operation, variables: undefined })).toEqual({ requested: 3, flat: 3 });
    // A mutation answering an object costs that object, as before.
    expect(costOf('mutation { revokeAccountApiKey { id } }')).toBe(1);
  });
});

describe('the width of an operation (D36)', () => {
  const aliases = (count: number, field: string) =>
    `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

  it('charges each 100 selected fields 1, scalars and __typename included', () => {
    // No object: the width alone, never less than 1.
    expect(costOf(aliases(199, '__typename'))).toBe(1);
    expect(costOf(aliases(200, '__typename'))).toBe(2);
    expect(costOf(aliases(500, '__typename'))).toBe(5);
    // 250 lists of the catalog, each with its two scalars: 250 objects, 750 fields.
    expect(costOf(aliases(250, 'languages { code name }'))).toBe(250 + 7);
  });

  it('counts a fragment where it is spread, and a page’s fields once however many items it holds', () => {
    const fields = Array.from({ length: 60 }, () => 'id').join(' ');
    const spread = `{ a: me { ...W } b: me { ...W } } fragment W on Account { ${fields} }`;
    // Two objects, 2 + 2 x 60 fields.
    expect(costOf(spread)).toBe(2 + 1);
    const page = `{ orders(perPage: 100) { items { ${fields} } } }`;
    // The page and its 100 items; 62 fields, not 6,000.
    expect(costOf(page)).toBe(1 + 100);
  });
});

describe('a chain of fragments each spreading the one before twice (issue 27)', () => {
  it.each([24, 40])('of %i levels is measured and priced in under 50 ms of CPU', (levels) => {
    const document = parse(fragmentChain(levels));
    let refusals: string[] = [];
    let cost = 0;
    const spent = cpuMs(() => {
      refusals = validate(schema, document, [
        queryLimits({ maxDepth: 10, maxIntrospectionDepth: 16, maxFields: 500 }),
      ]).map((error) => error.message);
      ({ requested: cost } = queryCost({
        schema,
        document,
        operation: document.definitions[0] as OperationDefinitionNode,
        variables: undefined,
      }));
    });
    expect(refusals).toEqual([`Query selects ${2 ** (levels + 1)} fields, more than the limit of 500.`]);
    // 2^levels `languages` lists, and a unit for each 100 of its 2^(levels + 1) fields (D36).
    expect(cost).toBe(2 ** levels + Math.floor(2 ** (levels + 1) / 100));
    expect(spent).toBeLessThan(50);
  });

  it('saturates counts no number can hold instead of overflowing', () => {
    const overflowing = fragmentChain(1100, { first: 'orders(perPage: 100) { items { id } }' });
    expect(measures(overflowing)).toEqual([
      'Query depth 3 exceeds the limit of 0.',
      `Query selects at least ${Number.MAX_SAFE_INTEGER} fields, more than the limit of 0.`,
    ]);
    expect(costOf(overflowing)).toBe(Number.MAX_SAFE_INTEGER);
  });
});

it('prices a perPage variable that is not an integer as the default page, never NaN (execution refuses the variable)', () => {
  const page = 'query($n: Int) { orders(perPage: $n) { items { id } } }';
  for (const n of ['x', 1.5, 1e300, true, {}]) expect(costOf(page, { n })).toBe(16);
});
