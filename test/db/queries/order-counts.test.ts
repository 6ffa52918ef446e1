import { expect } from '@jest/globals';
import { foldOrderCounts, ORDER_COUNT_FOLD, rebuildOrderCounts } from '../../../src/domain/orders/order-counts.queries';
import { readOrderPage } from '../../../src/domain/orders/polled-orders.queries';
import { runSql } from '../../../src/db/orm-driver';
import type { Account } from '../../../src/domain/identity/account.entity';
import { Order, OrderStatus } from '../../../src/domain/orders/order.entity';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount, insertOrder } from '../../helpers/rows';

let db: QueryDatabase;
let account: Account;
beforeAll(async () => {
  db = await openQueryDatabase();
  account = await insertAccount(db.em());
  await insertOrder(db.em(), await insertAccount(db.em()), { status: OrderStatus.COMPLETED });
});
afterAll(() => db.close());

/** The totals a list answers, against what counting the rows says, for every status and for none. */
async function totals(): Promise<{ answered: Record<string, number>; counted: Record<string, number> }> {
  const answered: Record<string, number> = {};
  const counted: Record<string, number> = {};
  for (const status of [undefined, ...Object.values(OrderStatus)]) {
    const page = await readOrderPage(db.em(), account.id, { status }, { page: 1, perPage: 1 });
    answered[status ?? 'all'] = page.total;
    const [{ n }] = await runSql<{ n: number }>(
      db.em(),
      `SELECT count(*)::int AS n FROM orders WHERE account_id = ?${status ? ' AND status = ?' : ''}`,
      status ? [account.id, status] : [account.id],
    );
    counted[status ?? 'all'] = n;
  }
  return { answered, counted };
}

const expectExact = async () => {
  const { answered, counted } = await totals();
  expect(answered).toEqual(counted);
};

it("keeps a list's total exact through inserts, status changes, other changes, deletes and folds", async () => {
  const orders = [];
  for (let i = 0; i < 5; i++) orders.push(await insertOrder(db.em(), account, { status: OrderStatus.PROCESSING }));
  await expectExact();

  await runSql(db.em(), 'UPDATE orders SET status = ? WHERE id IN (?)', [
    OrderStatus.COMPLETED,
    orders.slice(0, 3).map((order) => order.id),
  ]);
  await runSql(db.em(), 'UPDATE orders SET reference = ? WHERE account_id = ?', ['touched', account.id]);
  await expectExact();

  expect(await foldOrderCounts(db.em())).toBe(true);
  const [{ changes }] = await runSql<{ changes: number }>(
    db.em(),
    'SELECT count(*)::int AS changes FROM order_count_changes',
  );
  expect(changes).toBe(0);
  await expectExact();

  await db.em().nativeDelete(Order, { id: orders[4].id });
  await expectExact();
  expect((await totals()).answered).toMatchObject({ all: 4, completed: 3, processing: 1 });
});

it('writes no change for an update that leaves every status as it was', async () => {
  await foldOrderCounts(db.em());
  await runSql(db.em(), 'UPDATE orders SET updated_at = now() WHERE account_id = ?', [account.id]);
  const [{ changes }] = await runSql<{ changes: number }>(
    db.em(),
    'SELECT count(*)::int AS changes FROM order_count_changes',
  );
  expect(changes).toBe(0);
});

it('stays exact while orders change in other transactions during a fold', async () => {
  const writers = Array.from({ length: 20 }, (_, i) =>
    insertOrder(db.em(), account, { status: i % 2 ? OrderStatus.IN_REVIEW : OrderStatus.ON_HOLD }),
  );
  const folds = Array.from({ length: 5 }, () => foldOrderCounts(db.em()));
  const folded = await Promise.all(folds);
  await Promise.all(writers);
  // Folds of the same moment take turns: one folds, the others find it folding and leave it.
  expect(folded).toContain(true);
  await expectExact();
  await foldOrderCounts(db.em());
  await expectExact();
});

it('folds in one statement, so a reader never sees a change both folded and still pending', () => {
  expect(ORDER_COUNT_FOLD).toMatchSnapshot();
});

it('starts again from nothing when the orders are truncated', async () => {
  await runSql(db.em(), 'TRUNCATE orders CASCADE');
  expect((await totals()).answered.all).toBe(0);
  await insertOrder(db.em(), account, { status: OrderStatus.PROCESSING });
  await expectExact();
  expect((await totals()).answered).toMatchObject({ all: 1, processing: 1 });
});

it('counts again from the orders after writes that bypassed the triggers', async () => {
  await insertOrder(db.em(), account, { status: OrderStatus.COMPLETED });
  await runSql(
    db.em(),
    "SET session_replication_role = replica; UPDATE orders SET status = 'cancelled'; SET session_replication_role = DEFAULT",
  );
  const { answered, counted } = await totals();
  expect(answered).not.toEqual(counted);
  await rebuildOrderCounts(db.em());
  await expectExact();
});
