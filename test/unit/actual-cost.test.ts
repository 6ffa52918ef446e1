import { actualCost } from '../../src/api/graphql/actual-cost';

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
    expect(actualCost(page, 100)).toBe(6);
    expect(actualCost({ order: { id: 'a', number: 'LT-1' } }, 10)).toBe(1);
  });

  it('is never more than the requested cost, nor less than 1', () => {
    const many = { orders: { items: Array.from({ length: 50 }, (_, i) => ({ id: String(i) })) } };
    expect(actualCost(many, 20)).toBe(20);
    expect(actualCost({ order: null }, 5)).toBe(1);
    expect(actualCost(null, 5)).toBe(1);
  });
});
