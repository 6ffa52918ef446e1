import {
  readStaffOrderPage,
  staffOrderQueueStatements,
  type StaffOrderFilter,
} from '../../../src/domain/orders/staff-order-queue.queries';
import { OrderStatus, type Order } from '../../../src/domain/orders/order.entity';
import { hashToken } from '../../../src/domain/shared/tokens';
import { Account } from '../../../src/domain/identity/account.entity';
import { StaffRole, StaffUser } from '../../../src/domain/identity/staff-user.entity';
import { readOrder } from '../../../src/domain/orders/polled-orders.queries';
import { Payment } from '../../../src/domain/payments/payment.entity';
import { paymentRead } from '../../helpers/rows';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount, insertAttachment, insertFile, insertOrder } from '../../helpers/rows';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000);
const idsOf = (filter: StaffOrderFilter, perPage = 50) =>
  readStaffOrderPage(db.em(), filter, { page: 1, perPage }).then((page) => page.items.map(({ order }) => order.id));

it('writes only the filters given into the SQL', () => {
  const filters: StaffOrderFilter[] = [
    { overdue: false },
    { overdue: true },
    { overdue: true, status: OrderStatus.IN_REVIEW },
    { overdue: false, accountId: 'a', assigneeId: 's', search: '50%_off' },
  ];
  for (const filter of filters) expect(staffOrderQueueStatements(filter)).toMatchSnapshot(JSON.stringify(filter));
});

describe('readStaffOrderPage', () => {
  let orders: Record<string, Order>;
  let translator: StaffUser;
  beforeAll(async () => {
    const em = db.em();
    const [dubois, garrido] = [
      await insertAccount(em, { name: 'Dubois & Fontaine' }),
      await insertAccount(em, { name: 'Garrido 50% Legal' }),
    ];
    translator = Object.assign(new StaffUser(), {
      email: 'translator@example.test',
      name: 'T. Lindqvist',
      role: StaffRole.TRANSLATOR,
      tokenHash: hashToken('ltk_staff_translator'),
    });
    await em.persist(translator).flush();
    orders = {
      overdue: await insertOrder(em, dubois, {
        status: OrderStatus.PROCESSING,
        dueAt: hoursFromNow(-2),
        reference: 'Matter 12',
      }),
      overdueDone: await insertOrder(em, dubois, { status: OrderStatus.COMPLETED, dueAt: hoursFromNow(-3) }),
      soon: await insertOrder(em, garrido, {
        status: OrderStatus.IN_REVIEW,
        dueAt: hoursFromNow(5),
        assignee: translator,
      }),
      later: await insertOrder(em, garrido, { status: OrderStatus.PROCESSING, dueAt: hoursFromNow(30) }),
      unpaid: await insertOrder(em, dubois, {
        status: OrderStatus.PENDING_PAYMENT,
        dueAt: null,
        reference: 'Divorce_decree',
      }),
    };
  });

  it('lists every order soonest due first, undated last, with accounts and assignees, and counts them', async () => {
    const em = db.em();
    db.statements.length = 0;
    const page = await readStaffOrderPage(em, { overdue: false }, { page: 1, perPage: 4 });
    expect(db.statements).toHaveLength(3);
    const { overdue, overdueDone, soon, later, unpaid } = orders;
    expect(page.total).toBe(5);
    expect(page.items.map(({ order }) => order.id)).toEqual([overdueDone.id, overdue.id, soon.id, later.id]);
    expect(page.items.map(({ order }) => order.assignee?.name ?? null)).toEqual([null, null, 'T. Lindqvist', null]);
    expect(page.items[0].order.account.name).toBe('Dubois & Fontaine');
    // Read with the page, they are the request's entities: the desk's fields find them without a statement.
    expect(await em.findOneOrFail(Account, { id: overdue.account.id })).toBe(page.items[1].order.account);
    expect(await em.findOneOrFail(StaffUser, { id: translator.id })).toBe(page.items[2].order.assignee);
    expect(db.statements).toHaveLength(3);
    expect(
      await readStaffOrderPage(db.em(), { overdue: false }, { page: 2, perPage: 4 }).then((second) =>
        second.items.map(({ order }) => order.id),
      ),
    ).toEqual([unpaid.id]);
  });

  it("answers each order as a partner's list does, with its files", async () => {
    const { overdue } = orders;
    const em = db.em();
    const file = await insertFile(em, overdue.account, { name: 'affidavit.pdf' });
    await insertAttachment(em, file, { order: overdue });
    const [view] = (await readStaffOrderPage(db.em(), { overdue: true }, { page: 1, perPage: 1 })).items;
    const { account, assignee, payment, ...answer } = view.order;
    expect([account.id, assignee]).toEqual([overdue.account.id, null]);
    // The payment is its entity, whose books the desk shows (D26); what the answer shows of it is the polled read's.
    expect(payment).toBeInstanceOf(Payment);
    expect(payment).toMatchObject({ id: overdue.payment.id, amountCents: overdue.payment.amountCents });
    const polled = (await readOrder(db.em(), overdue.account.id, overdue.id))!;
    expect({ order: { ...answer, payment: paymentRead(payment) }, files: view.files }).toEqual({
      order: polled.order,
      files: polled.files,
    });
    expect(view.files).toEqual([{ id: file.id, type: file.type, name: 'affidavit.pdf', purgeReason: null }]);
  });

  it('filters by overdue (open work only), status, account and assignee', async () => {
    const { overdue, overdueDone, soon, unpaid } = orders;
    expect(await idsOf({ overdue: true })).toEqual([overdue.id]);
    expect(await idsOf({ overdue: true, status: OrderStatus.COMPLETED })).toEqual([overdueDone.id]);
    expect(await idsOf({ overdue: false, status: OrderStatus.IN_REVIEW })).toEqual([soon.id]);
    expect(await idsOf({ overdue: false, accountId: overdue.account.id })).toEqual([
      overdueDone.id,
      overdue.id,
      unpaid.id,
    ]);
    expect(await idsOf({ overdue: false, assigneeId: translator.id })).toEqual([soon.id]);
  });

  it("searches the number, the reference and the account's name, its wildcards taken literally", async () => {
    const { overdue, soon, later, unpaid } = orders;
    expect(await idsOf({ overdue: false, search: 'matter 1' })).toEqual([overdue.id]);
    expect(await idsOf({ overdue: false, search: overdue.number.slice(3) })).toEqual([overdue.id]);
    expect(await idsOf({ overdue: false, search: '50%' })).toEqual([soon.id, later.id]);
    expect(await idsOf({ overdue: false, search: 'e_d' })).toEqual([unpaid.id]);
    expect(await idsOf({ overdue: false, search: '0%L' })).toEqual([]);
  });

  it('answers a search its total from the same statement, on every page and past the last', async () => {
    const { soon, later } = orders;
    const search = { overdue: false, search: '50%' };
    const pages = await Promise.all([1, 2, 3].map((page) => readStaffOrderPage(db.em(), search, { page, perPage: 1 })));
    expect(pages.map((page) => [page.items.map(({ order }) => order.id), page.total])).toEqual([
      [[soon.id], 2],
      [[later.id], 2],
      [[], 2],
    ]);
    const none = await readStaffOrderPage(db.em(), { overdue: false, search: '0%L' }, { page: 1, perPage: 5 });
    expect([none.items, none.total]).toEqual([[], 0]);
  });
});
