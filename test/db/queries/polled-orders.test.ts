import { expect } from '@jest/globals';
import { FileType } from '../../../src/domain/files/file.entity';
import { OrderStatus, type Order } from '../../../src/domain/orders/order.entity';
import { PLACED_BY_API_KEY } from '../../../src/domain/identity/placed-by';
import { readOrder, readOrderPage, readOrderVersion } from '../../../src/domain/orders/polled-orders.queries';
import type { Account } from '../../../src/domain/identity/account.entity';
import { newId } from '../../../src/domain/shared/ids';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount, insertAttachment, insertFile, insertOrder } from '../../helpers/rows';

let db: QueryDatabase;
let account: Account;
let other: Account;
beforeAll(async () => {
  db = await openQueryDatabase();
  [account, other] = [await insertAccount(db.em()), await insertAccount(db.em())];
});
afterAll(() => db.close());

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 9, minutes));

describe('readOrder', () => {
  it("answers an account's order with its payment and its files, oldest attachment first, in one statement", async () => {
    const em = db.em();
    const order = await insertOrder(em, account, {
      status: OrderStatus.PROCESSING,
      reference: 'Matter 7',
      dueAt: at(30),
    });
    const [late, early] = [
      await insertFile(em, account, { name: 'late.pdf' }),
      await insertFile(em, account, { name: 'early.pdf', type: FileType.TRANSLATION }),
    ];
    await insertAttachment(em, late, { order }, at(2));
    await insertAttachment(em, early, { order }, at(1));
    // Attached to its quote only: not the order's.
    await insertAttachment(em, await insertFile(em, account), { quote: order.quote });
    db.statements.length = 0;
    const polled = await readOrder(db.em(), account.id, order.id);
    expect(db.statements).toHaveLength(1);
    expect(polled).toEqual({
      order: expect.objectContaining({
        id: order.id,
        number: order.number,
        status: OrderStatus.PROCESSING,
        reference: 'Matter 7',
        dueAt: at(30),
        createdAt: order.createdAt,
        quote: { id: order.quote.id },
        placedBy: PLACED_BY_API_KEY,
        payment: {
          id: order.payment.id,
          provider: 'sandbox',
          providerOrderId: null,
          approvalUrl: null,
          paidAt: null,
          refundedAt: null,
          refundedCents: 0,
        },
        certificateCode: null,
      }),
      files: [
        { id: early.id, type: FileType.TRANSLATION, name: 'early.pdf', purgeReason: null },
        { id: late.id, type: FileType.SOURCE, name: 'late.pdf', purgeReason: null },
      ],
      version: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it("answers nothing for another account's order or an unknown one", async () => {
    const order = await insertOrder(db.em(), other);
    expect(await readOrder(db.em(), account.id, order.id)).toBeNull();
    expect(await readOrderVersion(db.em(), account.id, order.id)).toBeNull();
    expect(await readOrder(db.em(), account.id, newId())).toBeNull();
  });
});

describe('readOrderVersion', () => {
  it("is the read's version, and moves with the order's row, its payment's row and its files", async () => {
    const em = db.em();
    const order = await insertOrder(em, account);
    const versions = [await readOrderVersion(db.em(), account.id, order.id)];
    expect(versions[0]).toBe((await readOrder(db.em(), account.id, order.id))!.version);
    const changes: ((o: Order) => Promise<unknown>)[] = [
      (o) => em.nativeUpdate('Order', { id: o.id }, { holdReason: 'Check the stamp' }),
      (o) => em.nativeUpdate('Payment', { id: o.payment.id }, { approvalUrl: 'https://pay.example.test/1' }),
      async (o) => insertAttachment(em, await insertFile(em, account), { order: o }),
    ];
    for (const change of changes) {
      await change(order);
      const version = await readOrderVersion(db.em(), account.id, order.id);
      expect(versions).not.toContain(version);
      versions.push(version);
    }
  });
});

describe('readOrderPage', () => {
  it("pages an account's orders newest first, each as its read answers it", async () => {
    const mine = await insertAccount(db.em());
    const orders = [];
    for (let minute = 0; minute < 3; minute++) orders.push(await insertOrder(db.em(), mine, { createdAt: at(minute) }));
    const page = await readOrderPage(db.em(), mine.id, {}, { page: 1, perPage: 2 });
    expect(page).toMatchObject({ total: 3, page: 1, perPage: 2 });
    expect(page.items.map((view) => view.order.id)).toEqual([orders[2].id, orders[1].id]);
    const { version, ...single } = (await readOrder(db.em(), mine.id, orders[2].id))!;
    expect(page.items[0]).toEqual(single);
  });
});
