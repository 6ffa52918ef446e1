import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AuditLogDocument,
  CloseInvoicesDocument,
  ConfirmInterpretationAvailabilityDocument,
  ConvertOnAccountDocument,
  RecordInvoicePaymentDocument,
  SentEmailsDocument,
} from '../graphql/generated';
import { requestBooking } from '../helpers/bookings';
import { createStaffToken, type TestAccount } from '../helpers/fixtures';
import { quoteFor, termsAccount } from '../helpers/terms';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D31's "Place order on account" page when it cannot place: past the credit limit or with an overdue invoice it says
 * why and offers "Pay by card instead", for a booking as for an order; the card checkout it opens confirms the work as
 * any card payment does. Once the overdue invoice is paid, the page places on account again.
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

const path = (url: string) => url.replace(t.config.appUrl, '');
/** A button's form, posted from the page itself as a browser does. */
const press = (url: string) => t.rest.raw().post(url).set('Origin', t.config.appUrl).type('form').send({});

const readBooking = async (account: TestAccount, id: string) =>
  (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, account.key).expect(200)).body.data;

const quote = (account: TestAccount, fileId: string) => quoteFor(t, account, fileId);

it('a booking past the credit limit is paid by card from its page, and is confirmed as a card-paid booking is', async () => {
  const { account } = await termsAccount(t, admin, 100);
  const requested = await requestBooking(t, account.key, { reference: 'Matter 9' });
  const confirmed = await t.gql(
    ConfirmInterpretationAvailabilityDocument,
    { id: requested.id, interpreterName: 'R. Diaz' },
    desk,
  );
  expect(confirmed.errors).toBeUndefined();
  const waiting = await readBooking(account, requested.id);
  expect(waiting.status).toBe('awaiting_payment');
  expect(waiting.total_cents).toBeGreaterThan(100);
  const url = path(waiting.payment.approval_url);
  expect(url).toMatch(/^\/api\/v1\/on-account\//);

  const page = await t.rest.raw().get(url).expect(200);
  expect(page.text).toContain('Place booking on account');
  expect(page.text).toContain('credit limit of $1.00: $1.00 is left on account. Pay this one by card instead.');
  expect(page.text).not.toContain('>Place booking on account</button>');
  expect(page.text).toContain(`<form method="post" action="${url}/card">`);
  expect(page.text).toContain('>Pay by card instead</button>');
  // The place button refused all the same, the page again saying why; nothing placed.
  expect((await press(`${url}/place`).expect(422)).text).toContain('credit limit');
  expect((await readBooking(account, requested.id)).status).toBe('awaiting_payment');

  const card = await press(`${url}/card`).expect(303);
  const checkout = path(card.headers.location);
  expect(checkout).toMatch(/^\/api\/v1\/sandbox\/checkout\//);
  const renewed = await readBooking(account, requested.id);
  expect(renewed.status).toBe('awaiting_payment');
  expect(renewed.payment).toMatchObject({ provider: 'sandbox', paid_at: null });
  expect(path(renewed.payment.approval_url)).toBe(checkout);
  const checkoutPage = await t.rest.raw().get(checkout).expect(200);
  expect(checkoutPage.text).toContain(requested.number);
  expect(checkoutPage.text).toContain(`>Pay $${(waiting.total_cents / 100).toFixed(2)}</button>`);
  // The placement page no longer places: its payment was replaced by the card's.
  const closed = await t.rest.raw().get(url).expect(200);
  expect(closed.text).toContain('being paid another way');
  expect(closed.text).not.toContain('</button>');
  await press(`${url}/card`).expect(422);

  await t.rest.raw().post(`${checkout}/pay`).type('form').send({}).expect(200);
  const paid = await readBooking(account, requested.id);
  expect(paid.status).toBe('confirmed');
  expect(paid.payment).toMatchObject({ provider: 'sandbox', refunded_cents: 0 });
  expect(paid.payment.paid_at).not.toBeNull();
  expect(paid.payment.receipt_url).toMatch(/\/api\/v1\/payments\/[0-9a-f-]{36}\/receipt$/);
  const mail = (await t.gql(SentEmailsDocument, { to: account.email, perPage: 100 }, admin)).data!.sentEmails.items;
  expect(mail.filter((item) => item.kind === 'payment_receipt').map((item) => item.subject)).toEqual([
    expect.stringContaining(requested.number),
  ]);
  expect(mail.map((item) => item.kind)).not.toContain('placed_on_account');
  const audit = (await t.gql(AuditLogDocument, { resourceId: requested.id }, admin)).data!.auditLog.items;
  expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(['booking.pay_by_card']));
  // Paid by card, it is on no invoice.
  expect((await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices).toBeNull();
});

it('with an overdue invoice the page explains and offers the card; once the invoice is paid it places again', async () => {
  const { account, fileId } = await termsAccount(t, admin);
  const first = await quote(account, fileId);
  const placed = await t.gql(ConvertOnAccountDocument, { id: first.id, onAccount: true }, account.key);
  expect(placed.data?.convertQuote.order.status).toBe('PROCESSING');
  const invoice = (await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices!;
  await t.orm.em
    .fork()
    .getConnection()
    .execute(`UPDATE invoices SET due_at = now() - interval '1 day' WHERE id = ?`, [invoice.id]);

  const second = await quote(account, fileId);
  const converted = await t.rest.post(`/api/v1/quotes/${second.id}/convert`, undefined, account.key).expect(201);
  expect(converted.body.data.status).toBe('pending_payment');
  const url = path(converted.body.provider_approval_url);
  const page = await t.rest.raw().get(url).expect(200);
  expect(page.text).toContain('An invoice of this account is overdue');
  expect(page.text).not.toContain('>Place order on account</button>');
  expect(page.text).toContain('>Pay by card instead</button>');
  expect((await press(`${url}/place`).expect(422)).text).toContain('overdue');
  const order = async () =>
    (await t.rest.get(`/api/v1/orders/${converted.body.data.id}`, account.key).expect(200)).body.data;
  expect((await order()).status).toBe('pending_payment');

  // Paid in two parts: still overdue after the first, free to place after the second.
  const part = await t.gql(RecordInvoicePaymentDocument, { id: invoice.id, amountCents: 1, method: 'wire' }, admin);
  expect(part.data?.recordInvoicePayment.status).toBe('OPEN');
  expect((await t.rest.raw().get(url).expect(200)).text).toContain('overdue');
  const rest = await t.gql(
    RecordInvoicePaymentDocument,
    { id: invoice.id, amountCents: invoice.totalCents - 1, method: 'wire', reference: 'TX-9' },
    admin,
  );
  expect(rest.data?.recordInvoicePayment.status).toBe('PAID');

  const again = await t.rest.raw().get(url).expect(200);
  expect(again.text).not.toContain('overdue');
  expect(again.text).toContain('>Place order on account</button>');
  expect((await press(`${url}/place`).expect(200)).text).toContain('Placed on account');
  expect((await order()).status).toBe('processing');
  expect((await order()).payment.provider).toBe('account');
  const third = await quote(account, fileId);
  const direct = await t.gql(ConvertOnAccountDocument, { id: third.id, onAccount: true }, account.key);
  expect(direct.data?.convertQuote.order.status).toBe('PROCESSING');
});
