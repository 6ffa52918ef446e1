import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  BookingReceiptDocument,
  CloseInvoicesDocument,
  CompleteWithHoursDocument,
  SentEmailsDocument,
  StaffInvoicesDocument,
} from '../graphql/generated';
import { passStart } from '../helpers/bookings';
import { createStaffToken } from '../helpers/fixtures';
import { placedBooking, termsAccount } from '../helpers/terms';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D32 with D31: a booking of an account on terms that ran long. Its overtime makes no checkout: it is placed on account
 * by the completion (whatever the credit limit), shown as `payment.overtime`, and billed once, as a line of its own on
 * the next invoice.
 */
let t: TestApp;
let admin: string;
let desk: string;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  admin = await createStaffToken(t);
  desk = await createStaffToken(t, StaffRole.DESK);
});
afterAll(() => t.close());

it('places the overtime on account, past the credit limit, and the close invoices it once', async () => {
  // The limit fits the booking exactly: the overtime passes it and is placed all the same.
  const { account } = await termsAccount(t, admin, 17_000);
  const booking = await placedBooking(t, desk, account);
  expect(booking.total).toBe(17_000);
  await passStart(t, booking.id);

  const done = await t.gql(CompleteWithHoursDocument, { id: booking.id, actualHours: 2.1 }, desk);
  expect(done.errors).toBeUndefined();
  expect(done.data!.completeInterpretationBooking.payment.overtime).toMatchObject({
    hours: 0.5,
    amountCents: 4250,
    approvalUrl: null,
  });
  const rest = (await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, account.key).expect(200)).body.data;
  expect(rest.status).toBe('completed');
  expect(rest.payment.overtime).toMatchObject({
    hours: 0.5,
    amount_cents: 4250,
    approval_url: null,
    receipt_url: null,
  });
  expect(rest.payment.overtime.paid_at).toMatch(/Z$/);
  const gql = (await t.gql(BookingReceiptDocument, { id: booking.id }, account.key)).data!.interpretationBooking!;
  expect(gql.payment).toMatchObject({ provider: 'account', receiptUrl: null });
  expect(gql.payment.overtime).toMatchObject({ hours: 0.5, amountCents: 4250, approvalUrl: null, receiptUrl: null });

  // No checkout link is mailed; the account is told the overtime is on account.
  const mail = (await t.gql(SentEmailsDocument, { to: account.email, perPage: 100 }, desk)).data!.sentEmails.items;
  expect(mail.filter((item) => item.kind === 'booking_overtime')).toEqual([]);
  const placed = mail.find(
    (item) => item.kind === 'placed_on_account' && item.subject.includes(`Overtime of booking ${booking.number}`),
  );
  expect(placed?.text).toContain('0.5 h past the 2 h billed');
  expect(placed?.text).toContain('next monthly invoice');

  // Two closes at once: one invoice, with the booking and its overtime each once; nothing left for a later close.
  const closes = await Promise.all([
    t.gql(CloseInvoicesDocument, { accountId: account.id }, admin),
    t.gql(CloseInvoicesDocument, { accountId: account.id }, admin),
  ]);
  for (const close of closes) expect(close.errors).toBeUndefined();
  const invoices = closes.flatMap((close) => (close.data!.closeInvoices ? [close.data!.closeInvoices] : []));
  expect(invoices).toHaveLength(1);
  const [invoice] = invoices;
  expect(invoice.lines.map((line) => [line.kind, line.number, line.amountCents])).toEqual([
    ['booking', booking.number, 17_000],
    ['booking', booking.number, 4250],
  ]);
  expect(invoice.totalCents).toBe(21_250);
  expect((await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices).toBeNull();
  const all = (await t.gql(StaffInvoicesDocument, { accountId: account.id }, admin)).data!.staffInvoices;
  expect(all.pageInfo.total).toBe(1);

  // The overtime's line says what it is, on both doors.
  const read = (await t.rest.get(`/api/v1/invoices/${invoice.id}`, account.key).expect(200)).body.data;
  expect(read.lines[1].description).toBe(`Overtime of interpretation booking ${booking.number}`);
});

it('completes without overtime on terms as before: nothing placed, nothing more invoiced', async () => {
  const { account } = await termsAccount(t, admin);
  const booking = await placedBooking(t, desk, account);
  await passStart(t, booking.id);
  const done = await t.gql(CompleteWithHoursDocument, { id: booking.id, actualHours: 2 }, desk);
  expect(done.errors).toBeUndefined();
  expect(done.data!.completeInterpretationBooking.payment.overtime).toBeNull();
  const invoice = (await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices!;
  expect(invoice.lines.map((line) => line.amountCents)).toEqual([booking.total]);
});
