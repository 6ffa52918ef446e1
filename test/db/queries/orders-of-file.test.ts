import { statusesOfOrdersWithFile } from '../../../src/domain/orders/orders-of-file.queries';
import { OrderStatus } from '../../../src/domain/orders/order.entity';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount, insertAttachment, insertFile, insertOrder, insertQuote } from '../../helpers/rows';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

it('answers the status of every order a file is attached to, and none for a file only quoted', async () => {
  const em = db.em();
  const account = await insertAccount(em);
  const [shared, quoted] = [await insertFile(em, account), await insertFile(em, account)];
  await insertAttachment(em, shared, { order: await insertOrder(em, account, { status: OrderStatus.COMPLETED }) });
  await insertAttachment(em, shared, { order: await insertOrder(em, account, { status: OrderStatus.IN_REVIEW }) });
  await insertAttachment(em, quoted, { quote: await insertQuote(em, account) });
  expect((await statusesOfOrdersWithFile(db.em(), shared.id)).sort()).toEqual([
    OrderStatus.COMPLETED,
    OrderStatus.IN_REVIEW,
  ]);
  expect(await statusesOfOrdersWithFile(db.em(), quoted.id)).toEqual([]);
});
