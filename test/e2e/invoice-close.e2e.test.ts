import { monthStart } from '../../src/domain/billing/invoice.service';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  type BillingTerms,
  CompleteWithHoursDocument,
  RecordInvoicePaymentDocument,
  RefundOrderDocument,
  SentEmailsDocument,
  SetAccountBillingDocument,
  StaffInvoicesDocument,
  VoidInvoiceDocument,
} from '../graphql/generated';
import { passStart } from '../helpers/bookings';
import { createStaffToken, type TestAccount } from '../helpers/fixtures';
import { placedBooking, placedOnAccount, quoteFor, termsAccount } from '../helpers/terms';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D31's monthly close as the `invoice-close` schedule runs it (`InvoiceService.closeMonth`, whose clock is its `now`):
 * each account's work on account placed before the 1st (UTC) is invoiced for the month before, once however often it
 * runs in the month; and a month of mixed work (orders, a booking and its overtime, refunds before and after a close,
 * one against a paid invoice, a voided invoice, an order paid by card) is on the invoices to the cent, the card's
 * money kept apart.
 */
let t: TestApp;
let admin: string;
let desk: string;

beforeAll(async () => {
  // The workers register the schedules.
  t = await startTestApp();
  admin = await createStaffToken(t);
  desk = await createStaffToken(t, StaffRole.DESK);
});
afterAll(() => t.close());

const sql = <T>(query: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.fork().getConnection().execute<T[]>(query, params);

/** The close the schedule runs, on the clock at `now` (the real one when not given). */
const closeMonth = (now?: Date) => t.services.invoices.closeMonth(t.orm.em.fork(), now);

/** The first instant of the month `months` after `date`'s (UTC), plus five minutes: when the schedule's run comes. */
const runOf = (date: Date, months: number) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1, 0, 5));

/** `YYYYMM` of `date`, UTC, as invoice numbers carry it. */
const yyyymm = (date: Date) => `${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;

/** Says the placement of `table`'s row `id` happened at `at`, as if it had been placed then. */
const placedAt = (table: 'orders' | 'interpretation_bookings', id: string, at: Date) =>
  sql(`UPDATE payments SET paid_at = ? WHERE id = (SELECT payment_id FROM ${table} WHERE id = ?)`, [at, id]);

const invoicesOf = async (account: TestAccount) =>
  (await t.gql(StaffInvoicesDocument, { accountId: account.id }, admin)).data!.staffInvoices.items;

it('invoices what was placed before the 1st (UTC) for the month before, once however often it runs', async () => {
  const { account, fileId } = await termsAccount(t, admin);
  const thisMonth = monthStart(new Date());
  const lastMonth = new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() - 1, 1));
  const lastOrder = await placedOnAccount(t, account, fileId, 'PO-31');
  const lastBooking = await placedBooking(t, desk, account);
  const firstOrder = await placedOnAccount(t, account, fileId);
  // The last millisecond of last month, and the first of this one.
  await placedAt('orders', lastOrder.id, new Date(thisMonth.getTime() - 1));
  await placedAt('interpretation_bookings', lastBooking.id, new Date(thisMonth.getTime() - 2));
  await placedAt('orders', firstOrder.id, thisMonth);

  // Two runs at once (a process and its restart), then a third: one invoice.
  const runs = await Promise.all([closeMonth(), closeMonth()]);
  expect(runs.sort()).toEqual([0, 1]);
  expect(await closeMonth()).toBe(0);
  const [closed] = await invoicesOf(account);
  expect(await invoicesOf(account)).toHaveLength(1);
  expect(new Date(closed.periodStart)).toEqual(lastMonth);
  expect(closed.number).toMatch(new RegExp(`^INV-${yyyymm(new Date())}-\\d{4}$`));
  expect(closed.lines.map((line) => [line.kind, line.number, line.purchaseOrder, line.amountCents])).toEqual([
    ['booking', lastBooking.number, null, lastBooking.total],
    ['order', lastOrder.number, 'PO-31', lastOrder.total],
  ]);
  expect(closed.totalCents).toBe(lastBooking.total + lastOrder.total);
  const mailed = async () =>
    (await t.gql(SentEmailsDocument, { to: account.email, perPage: 100 }, admin)).data!.sentEmails.items.filter(
      (item) => item.kind === 'invoice_issued',
    );
  expect(await mailed()).toHaveLength(1);

  // Next month's run takes this month's work, and runs again find nothing.
  const nextRun = runOf(new Date(), 1);
  expect(await closeMonth(nextRun)).toBe(1);
  expect(await closeMonth(new Date(nextRun.getTime() + 24 * 3600_000))).toBe(0);
  const [next] = await invoicesOf(account);
  expect(next.id).not.toBe(closed.id);
  expect(new Date(next.periodStart)).toEqual(thisMonth);
  expect(new Date(next.issuedAt)).toEqual(nextRun);
  expect(next.number).toMatch(new RegExp(`^INV-${yyyymm(nextRun)}-\\d{4}$`));
  expect(next.lines.map((line) => line.number)).toEqual([firstOrder.number]);
  expect(await mailed()).toHaveLength(2);
});

it('a month of mixed work (orders, a booking with overtime, refunds, a voided invoice, a card order) is on the invoices to the cent', async () => {
  const { account, fileId } = await termsAccount(t, admin);
  const orders = [
    await placedOnAccount(t, account, fileId),
    await placedOnAccount(t, account, fileId),
    await placedOnAccount(t, account, fileId),
  ];
  const booking = await placedBooking(t, desk, account);
  await passStart(t, booking.id);
  const done = await t.gql(CompleteWithHoursDocument, { id: booking.id, actualHours: 2.1 }, desk);
  const overtime = done.data!.completeInterpretationBooking.payment.overtime!.amountCents;
  expect(overtime).toBe(4250);
  const card = await paidByCardInstead(account, fileId);
  await t.gql(RefundOrderDocument, { id: card.id, amountCents: 300, reason: 'Late delivery' }, admin);
  // A refund in part before the close is a credit on the same invoice.
  await t.gql(RefundOrderDocument, { id: orders[0].id, amountCents: 250, reason: 'Late delivery' }, admin);

  const firstRun = runOf(new Date(), 1);
  await closeMonth(firstRun);
  const [voided] = await invoicesOf(account);
  await t.gql(VoidInvoiceDocument, { id: voided.id, reason: 'Wrong address' }, admin);
  // Voided, its work is new again: the next run of the same month issues it again, once.
  await closeMonth(firstRun);
  await closeMonth(firstRun);
  expect(await invoicesOf(account)).toHaveLength(2);
  const first = (await invoicesOf(account)).find((item) => item.id !== voided.id)!;
  expect(new Date(first.periodStart)).toEqual(monthStart(new Date()));
  expect(first.credits.map((credit) => [credit.number, credit.amountCents])).toEqual([[orders[0].number, 250]]);
  expect(first.lines.map((line) => [line.number, line.amountCents])).toEqual([
    ...orders.map((order) => [order.number, order.total]),
    [booking.number, booking.total],
    [booking.number, overtime],
  ]);
  const paid = await t.gql(
    RecordInvoicePaymentDocument,
    { id: first.id, amountCents: first.totalCents, method: 'wire', reference: 'TX-2' },
    admin,
  );
  expect(paid.data?.recordInvoicePayment.status).toBe('PAID');

  // A refund against the paid invoice: the invoice stays as issued, and the credit goes on the next one.
  await t.gql(RefundOrderDocument, { id: orders[1].id, amountCents: 99, reason: 'Typo' }, admin);
  const fourth = await placedOnAccount(t, account, fileId);
  await closeMonth(runOf(new Date(), 2));
  expect(await invoicesOf(account)).toHaveLength(3);
  const [second, ...earlier] = await invoicesOf(account);
  const issued = ({ number, lines, credits, totalCents, issuedAt, dueAt }: typeof first) => ({
    number,
    lines,
    credits,
    totalCents,
    issuedAt,
    dueAt,
  });
  const again = earlier.find((item) => item.id === first.id)!;
  expect(issued(again)).toEqual(issued(first));
  expect(again).toMatchObject({ status: 'PAID', paidCents: first.totalCents });
  expect(second.credits.map((credit) => [credit.number, credit.amountCents])).toEqual([[orders[1].number, 99]]);
  expect(second.lines.map((line) => line.number)).toEqual([fourth.number]);
  expect(second.totalCents).toBe(fourth.total - 99);

  const placed = [...orders, fourth].reduce((sum, order) => sum + order.total, 0) + booking.total + overtime;
  const refunded = 250 + 99;
  const live = (await invoicesOf(account)).filter((item) => item.status !== 'VOID');
  expect(live.reduce((sum, item) => sum + item.totalCents, 0)).toBe(placed - refunded);
  // Every placement on exactly one live invoice (the booking twice: its hours and its overtime); the card order on none.
  const numbers = live.flatMap((item) => item.lines.map((line) => line.number)).sort();
  expect(numbers).toEqual([...orders, fourth, booking, booking].map((work) => work.number).sort());
  // The payments' own books: on account, captured = placed and refunded = credited; by card, captured = kept + refunded.
  const books = async (provider: string) => {
    const [row] = await sql<{ captured: number; refunded: number; refund_rows: number }>(
      `WITH mine AS (
         SELECT p.id, p.captured_cents, p.refunded_cents FROM payments p
           LEFT JOIN orders o ON o.id = p.order_id LEFT JOIN interpretation_bookings b ON b.id = p.booking_id
          WHERE p.provider = ? AND coalesce(o.account_id, b.account_id) = ?)
       SELECT (SELECT sum(captured_cents)::int FROM mine) AS captured,
              (SELECT sum(refunded_cents)::int FROM mine) AS refunded,
              (SELECT coalesce(sum(r.amount_cents), 0)::int FROM payment_refunds r JOIN mine ON mine.id = r.payment_id)
                AS refund_rows`,
      [provider, account.id],
    );
    return row;
  };
  expect(await books('account')).toEqual({ captured: placed, refunded, refund_rows: refunded });
  const kept = card.total - 300;
  const cardBooks = await books('sandbox');
  expect(cardBooks).toEqual({ captured: card.total, refunded: 300, refund_rows: 300 });
  expect(cardBooks.captured).toBe(kept + cardBooks.refunded);
});

it('is registered as daily and hourly schedules, each run once across all processes', async () => {
  expect(
    await sql(
      "SELECT name, cron FROM pgboss.schedule WHERE name IN ('invoice-close', 'invoice-overdue') ORDER BY name",
    ),
  ).toEqual([
    { name: 'invoice-close', cron: '5 0 * * *' },
    { name: 'invoice-overdue', cron: '15 * * * *' },
  ]);
});

/**
 * An order of the terms account that its placement page refuses (the credit limit lowered to nothing for it) and the
 * client pays by card instead; the limit is then put back.
 */
async function paidByCardInstead(account: TestAccount, fileId: string) {
  const limit = (creditLimitCents: number) =>
    t.gql(
      SetAccountBillingDocument,
      { accountId: account.id, terms: 'NET_30' as BillingTerms, creditLimitCents, purchaseOrderRequired: false },
      admin,
    );
  await limit(1);
  const quote = await quoteFor(t, account, fileId);
  const converted = await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, account.key).expect(201);
  const page = converted.body.provider_approval_url.replace(t.config.appUrl, '');
  const card = await t.rest.raw().post(`${page}/card`).type('form').send({}).expect(303);
  await t.rest
    .raw()
    .post(`${card.headers.location.replace(t.config.appUrl, '')}/pay`)
    .type('form')
    .send({})
    .expect(200);
  await limit(10_000_000);
  const order = (await t.rest.get(`/api/v1/orders/${converted.body.data.id}`, account.key).expect(200)).body.data;
  expect(order.payment.provider).toBe('sandbox');
  return { id: order.id as string, number: order.number as string, total: quote.total_cents };
}
