import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  type BillingTerms,
  BookingReceiptDocument,
  ConfirmInterpretationAvailabilityDocument,
  ConvertOnAccountDocument,
  OrderReceiptDocument,
  RefundOrderDocument,
  SetAccountBillingDocument,
  StaffOrderReceiptDocument,
} from '../graphql/generated';
import { requestBooking } from '../helpers/bookings';
import { docx, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { paidOrder } from '../helpers/orders';
import { bytesOf, pdfText } from '../helpers/pdf-pages';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D31's receipts through HTTP on both doors: a card-paid order or booking's `payment.receipt_url` is a stable link (the
 * polled answer's ETag holds) that answers its account, or staff who may see payments, with a redirect to a fresh
 * 5-minute signed link of the PDF; other accounts get the not-found; work on account and unpaid work have none.
 */
let t: TestApp;
let admin: string;
let desk: string;
let alice: TestAccount;
let fileId: string;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  admin = await createStaffToken(t);
  desk = await createStaffToken(t, StaffRole.DESK);
  alice = await createApprovedAccount(t, admin);
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(700)] }), 'brief.docx')).id;
});
afterAll(() => t.close());

const path = (url: string) => url.replace(t.config.appUrl, '');

/** The receipt behind `receiptUrl`, fetched as `token`: the redirect, then the PDF's text (and its first page as a PNG). */
async function fetchReceipt(receiptUrl: string, token: string) {
  const redirect = await t.rest.raw().get(path(receiptUrl)).set('Authorization', `Bearer ${token}`).expect(302);
  expect(redirect.headers['cache-control']).toBe('private, no-store');
  const signed = new URL(redirect.headers.location);
  expect(signed.pathname).toBe(`${new URL(receiptUrl).pathname}/pdf`);
  expect(Number(signed.searchParams.get('expires')) * 1000 - Date.now()).toBeLessThanOrEqual(5 * 60_000);
  const pdf = await bytesOf(t, `${signed.pathname}${signed.search}`).expect(200);
  expect(pdf.headers['content-type']).toBe('application/pdf');
  return { signed, text: pdfText(pdf.body as Buffer) };
}

it("a card-paid order's receipt: a stable link on both doors, its account and the desk get the PDF, others not", async () => {
  const id = await paidOrder(t, alice, [fileId], 'standard', { reference: 'Matter 41', purchase_order: 'PO-77' });
  const first = await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200);
  const receiptUrl = first.body.data.payment.receipt_url as string;
  expect(receiptUrl).toMatch(new RegExp(`^${t.config.appUrl}/api/v1/payments/[0-9a-f-]{36}/receipt$`));
  // Stable: the polled answer's tag holds.
  await t.rest
    .raw()
    .get(`/api/v1/orders/${id}`)
    .set('Authorization', `Bearer ${alice.key}`)
    .set('If-None-Match', first.headers.etag)
    .expect(304);
  const gql = await t.gql(OrderReceiptDocument, { id }, alice.key);
  expect(gql.data!.order!.payment.receiptUrl).toBe(receiptUrl);
  expect((await t.gql(StaffOrderReceiptDocument, { id }, desk)).data!.staffOrder!.payment.receiptUrl).toBe(receiptUrl);

  const { signed, text } = await fetchReceipt(receiptUrl, alice.key);
  expect(text).toContain('RECEIPT');
  expect(text).toContain(t.config.company.name);
  expect(text).toContain(`Order ${first.body.data.number}`);
  expect(text).toContain('Matter 41');
  expect(text).toContain('PO-77');
  expect(text).toContain(alice.email);
  const total = `$${(first.body.data.total_cents / 100).toFixed(2)}`;
  expect(text).toContain(total);
  expect(text).not.toContain('Refunded');
  // The desk reads it too; a translator learns nothing about money.
  await fetchReceipt(receiptUrl, desk);
  const translator = await createStaffToken(t, StaffRole.TRANSLATOR);
  await t.rest.raw().get(path(receiptUrl)).set('Authorization', `Bearer ${translator}`).expect(403);

  // Another account, no key, a bad id, a tampered or expired signature: refused, the same not-found for ids.
  const bob = await createApprovedAccount(t, admin);
  const foreign = await t.rest.raw().get(path(receiptUrl)).set('Authorization', `Bearer ${bob.key}`).expect(404);
  expect(foreign.body).toEqual({ message: 'Not found.' });
  await t.rest.raw().get(path(receiptUrl)).expect(401);
  await t.rest.raw().get('/api/v1/payments/not-an-id/receipt').set('Authorization', `Bearer ${alice.key}`).expect(404);
  await t.rest
    .raw()
    .get(`${signed.pathname}?expires=${signed.searchParams.get('expires')}&signature=${'0'.repeat(64)}`)
    .expect(404);
  await t.rest
    .raw()
    .get(`${signed.pathname}?expires=1&signature=${signed.searchParams.get('signature')}`)
    .expect(404);
  await t.rest.raw().post(path(receiptUrl)).set('Authorization', `Bearer ${alice.key}`).expect(405);

  // A refund in part shows on the receipt; the link stays the same.
  const refunded = await t.gql(RefundOrderDocument, { id, amountCents: 250, reason: 'Late' }, admin);
  expect(refunded.errors).toBeUndefined();
  const after = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
  expect(after.payment.receipt_url).toBe(receiptUrl);
  const withRefund = (await fetchReceipt(receiptUrl, alice.key)).text;
  expect(withRefund).toMatch(/Refunded on .*-\$2\.50/);
  expect(withRefund).toContain(`$${((first.body.data.total_cents - 250) / 100).toFixed(2)}`);
});

it('unpaid work and work on account have no receipt; a card-paid booking has one on both doors', async () => {
  const quote = (
    await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [fileId] },
        alice.key,
      )
      .expect(201)
  ).body.data;
  const unpaid = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201)).body.data;
  expect((await t.rest.get(`/api/v1/orders/${unpaid.id}`, alice.key).expect(200)).body.data.payment.receipt_url).toBe(
    null,
  );

  const carol = await createApprovedAccount(t, admin);
  await t.gql(
    SetAccountBillingDocument,
    { accountId: carol.id, terms: 'NET_15' as BillingTerms, creditLimitCents: 1_000_000, purchaseOrderRequired: false },
    admin,
  );
  const carolFile = (await uploadFile(t, carol.key, await docx({ paragraphs: [words(300)] }), 'a.docx')).id;
  const onAccountQuote = (
    await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [carolFile] },
        carol.key,
      )
      .expect(201)
  ).body.data;
  const placed = await t.gql(ConvertOnAccountDocument, { id: onAccountQuote.id, onAccount: true }, carol.key);
  const orderId = placed.data!.convertQuote.order.id;
  const onAccount = (await t.gql(OrderReceiptDocument, { id: orderId }, carol.key)).data!.order!.payment;
  expect(onAccount).toEqual({ provider: 'account', receiptUrl: null });
  const [{ payment_id: paymentId }] = await t.orm.em
    .fork()
    .getConnection()
    .execute(`SELECT payment_id FROM orders WHERE id = ?`, [orderId]);
  await t.rest
    .raw()
    .get(`/api/v1/payments/${paymentId}/receipt`)
    .set('Authorization', `Bearer ${carol.key}`)
    .expect(404);

  const booking = await requestBooking(t, alice.key, { reference: 'Deposition 3' });
  expect(
    (await t.gql(BookingReceiptDocument, { id: booking.id }, alice.key)).data!.interpretationBooking!.payment,
  ).toMatchObject({ receiptUrl: null, overtime: null });
  await t.gql(ConfirmInterpretationAvailabilityDocument, { id: booking.id, interpreterName: 'Ana Ruiz' }, desk);
  const approval = (await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, alice.key).expect(200)).body.data
    .payment.approval_url as string;
  await t.rest
    .raw()
    .post(`${path(approval)}/pay`)
    .type('form')
    .send({})
    .expect(200);
  const paid = (await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, alice.key).expect(200)).body.data;
  expect(paid.status).toBe('confirmed');
  const receiptUrl = paid.payment.receipt_url as string;
  expect(receiptUrl).toMatch(/\/api\/v1\/payments\/[0-9a-f-]{36}\/receipt$/);
  const gql = await t.gql(BookingReceiptDocument, { id: booking.id }, alice.key);
  expect(gql.data!.interpretationBooking!.payment.receiptUrl).toBe(receiptUrl);
  const { text } = await fetchReceipt(receiptUrl, alice.key);
  expect(text).toContain(`Booking ${booking.number}`);
  expect(text).toContain('Deposition 3');
  expect(text).toContain(`$${(paid.total_cents / 100).toFixed(2)}`);
  await t.rest.raw().get(path(receiptUrl)).set('Authorization', `Bearer ${carol.key}`).expect(404);
});
