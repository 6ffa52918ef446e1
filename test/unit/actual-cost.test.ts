import { actualCost } from '../../src/api/graphql/actual-cost';

const cost = (requested: number, flat = 0) => ({ requested, flat });

describe('the actual cost of an answer (D24)', () => {
  it('counts each object returned, each item of a list, and no scalar', () => {
    const page = {
      orders: {
        items: [
          { id: 'a', files: [{ id: 'f' }, { id: 'g' }] },
          { id: 'b', files: [] },
        ],
        pageInfo: { total: 2 },
      },
    };
    // orders, 2 items, 2 files, pageInfo.
    expect(actualCost(page, cost(100))).toBe(6);
    expect(actualCost({ order: { id: 'a', number: 'LT-1' } }, cost(10))).toBe(1);
  });

  it('is never more than the requested cost, nor less than 1', () => {
    const many = { orders: { items: Array.from({ length: 50 }, (_, i) => ({ id: String(i) })) } };
    expect(actualCost(many, cost(20))).toBe(20);
    expect(actualCost({ order: null }, cost(5))).toBe(1);
    expect(actualCost(null, cost(5))).toBe(1);
  });

  it('adds the charge for the selected fields (D36) to the objects returned, within the requested cost', () => {
    // 500 aliases of __typename: no object comes back, its 5 units of width are charged all the same.
    const typenames = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`t${i}`, 'Query']));
    expect(actualCost(typenames, cost(5, 5))).toBe(5);
    // A page of 3 of a wide selection: 3 items and the page, and its width.
    const page = { orders: { items: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] } };
    expect(actualCost(page, cost(103, 2))).toBe(4 + 2);
    // Objects are counted up to what is left of the requested cost once the width is taken out.
    const many = { orders: { items: Array.from({ length: 50 }, (_, i) => ({ id: String(i) })) } };
    expect(actualCost(many, cost(22, 2))).toBe(22);
  });

  it('charges each mutation answering a scalar (D24), though it returns no object', () => {
    // 12 aliased deleteFile: 12 acts, charged as 12 REST deletes are.
    const deleted = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`d${i}`, true]));
    expect(actualCost(deleted, cost(12, 12))).toBe(12);
  });
});
