import { AuditLogDocument, ConfirmInterpretationAvailabilityDocument, SentEmailsDocument, StaffCancelOrderDocument } from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { startPayPalStandIn } from '../helpers/paypal-stand-in';
import { pollUntil } from '../helpers/poll';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** The PayPal provider against a local server that speaks PayPal's API (D9). */
let paypal: Awaited<ReturnType<typeof startPayPalStandIn>>;
let t: TestApp;
let staff: string;
let alice: TestAccount;
let fileId: string;

beforeAll(async () => {
  paypal = await startPayPalStandIn();
  t = await startTestApp({
    config: {
      payment: { provider: 'paypal', baseUrl: paypal.baseUrl, clientId: paypal.credentials.clientId, clientSecret: paypal.credentials.secret, webhookId: paypal.credentials.webhookId },
    },
  });
  staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(1234)] }), 'contract.docx')).id;
});
afterAll(async () => {
  await t.close();
  await paypal.close();
});
beforeEach(() => {
  paypal.mode.down = false;
  paypal.mode.declineCapture = false;
});

const REDIRECT = 'https://portal.example.test/back';
async function convertOrder(redirect: string | undefined = REDIRECT) {
  const quote = (await t.rest.post('/api/v1/quotes', { source_language: 'de', target_language: 'en', service_type: 'standard', file_ids: [fileId] }, alice.key).expect(201)).body.data;
  const res = await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, redirect ? { redirect_url: redirect } : undefined, alice.key).expect(201);
  const order = (await t.rest.get(`/api/v1/orders/${res.body.data.id}`, alice.key).expect(200)).body.data;
  return { quote, order, approvalUrl: res.body.provider_approval_url as string, paypalId: order.payment.provider_order_id as string };
}
const orderState = async (id: string) => (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
const webhook = (event: { id: string } & Record<string, unknown>, forged = false) =>
  t.rest.raw().post('/api/v1/payments/paypal/webhook').set(paypal.signedHeaders(event, forged)).send(event);
const approvedEvent = (paypalId: string) => ({ id: `WH-${Math.random().toString(36).slice(2)}`, event_type: 'CHECKOUT.ORDER.APPROVED', resource: { id: paypalId, status: 'APPROVED' } });
const captures = () => paypal.calls.filter((c) => /\/capture$/.test(c)).length;

describe('PayPal checkout', () => {
  it('creates a CAPTURE order for the total with the payer-action link, then captures on return', async () => {
    const tokenCallsBefore = paypal.calls.filter((c) => c === 'POST /v1/oauth2/token').length;
    const { order, approvalUrl, paypalId } = await convertOrder();
    expect(approvalUrl).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${paypalId}`);
    const created = paypal.orders.get(paypalId)!;
    expect(created.amount).toEqual({ currency_code: 'USD', value: '12.34' });
    expect(created.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.returnUrl).toBe('http://127.0.0.1:3000/api/v1/payments/paypal/return');
    expect(order.payment).toMatchObject({ provider: 'paypal', provider_order_id: paypalId, approval_url: approvalUrl, paid_at: null });

    paypal.approve(paypalId);
    const back = await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}&PayerID=PAYER1`).expect(303);
    expect(back.headers.location).toBe(`${REDIRECT}?payment=paid&order_id=${order.id}`);
    expect(await orderState(order.id)).toMatchObject({ status: 'processing', payment: { paid_at: expect.stringMatching(/Z$/) } });
    // The token is fetched once and reused.
    expect(paypal.calls.filter((c) => c === 'POST /v1/oauth2/token').length - tokenCallsBefore).toBeLessThanOrEqual(1);
  });

  it('confirms through the CHECKOUT.ORDER.APPROVED webhook, and ignores its duplicate', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    const event = approvedEvent(paypalId);
    expect((await webhook(event).expect(200)).body).toEqual({ status: 'handled' });
    expect((await orderState(order.id)).status).toBe('processing');
    const before = captures();
    expect((await webhook(event).expect(200)).body).toEqual({ status: 'duplicate' });
    expect(captures()).toBe(before);
    // The payer's browser comes back afterwards: same order, nothing more.
    await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(303);
    expect(captures()).toBe(before);
  });

  it('confirms once when the return and the webhook race', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    const before = captures();
    const [back, hook] = await Promise.all([t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`), webhook(approvedEvent(paypalId))]);
    expect(back.status).toBe(303);
    expect(hook.status).toBe(200);
    expect(captures() - before).toBe(1);
    const state = await orderState(order.id);
    expect(state.status).toBe('processing');
    const jobs = await t.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'translate-order' AND data->>'orderId' = ?`, [order.id]);
    expect(jobs[0].n).toBe(1);
  });

  it('marks paid from PAYMENT.CAPTURE.COMPLETED without capturing again', async () => {
    const { order, paypalId } = await convertOrder();
    const before = captures();
    const event = { id: 'WH-CAP-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'CAPX1', status: 'COMPLETED', supplementary_data: { related_ids: { order_id: paypalId } } } };
    expect((await webhook(event).expect(200)).body).toEqual({ status: 'handled' });
    expect(captures()).toBe(before);
    expect((await orderState(order.id)).status).toBe('processing');
  });

  it('rejects a forged webhook and changes nothing', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    const event = approvedEvent(paypalId);
    const forged = await webhook(event, true).expect(400);
    expect(forged.body).toEqual({ message: 'Invalid webhook signature.' });
    const unsigned = await t.rest.raw().post('/api/v1/payments/paypal/webhook').send(approvedEvent(paypalId)).expect(400);
    expect(unsigned.body).toEqual({ message: 'Invalid webhook signature.' });
    expect((await orderState(order.id)).status).toBe('pending_payment');
    // Not even recorded: the genuine event with the same id is still handled when it comes.
    const rows = await t.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM webhook_events WHERE event_id = ?`, [event.id]);
    expect(rows[0].n).toBe(0);
    expect((await webhook(event).expect(200)).body).toEqual({ status: 'handled' });
    expect((await orderState(order.id)).status).toBe('processing');
  });

  it('sends the payer back with payment=declined when PayPal declines the capture', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    paypal.mode.declineCapture = true;
    const back = await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(303);
    expect(back.headers.location).toBe(`${REDIRECT}?payment=declined&order_id=${order.id}`);
    expect(await orderState(order.id)).toMatchObject({ status: 'pending_payment', payment: { paid_at: null } });
  });

  it('puts a paid order on hold when PayPal reverses the capture', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(303);
    const reversal = { id: 'WH-REV-1', event_type: 'PAYMENT.CAPTURE.REVERSED', resource: { id: 'x', supplementary_data: { related_ids: { order_id: paypalId } } } };
    await webhook(reversal).expect(200);
    expect(await orderState(order.id)).toMatchObject({ status: 'on_hold', hold_reason: 'Payment reversed at PayPal' });
  });

  it('refunds the capture at PayPal when staff cancel a paid order', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(303);
    const { data, errors } = await t.gql(StaffCancelOrderDocument, { id: order.id, reason: 'Client withdrew' }, staff);
    expect(errors).toBeUndefined();
    expect(data!.staffCancelOrder.payment.refundedAt).toMatch(/Z$/);
    expect(paypal.refunds.at(-1)).toMatchObject({ captureId: paypal.orders.get(paypalId)!.captureId, amount: { value: '12.34', currency_code: 'USD' } });
  });

  it('takes a booking\'s payment the same way once staff confirm an interpreter', async () => {
    const booking = (await t.rest.post('/api/v1/interpretation-bookings', { source_language: 'es', target_language: 'en', mode: 'asl', scheduled_at: '2030-06-01T10:00:00+02:00', duration_hours: 1 }, alice.key).expect(201)).body.data;
    const confirmed = await t.gql(ConfirmInterpretationAvailabilityDocument, { id: booking.id, interpreterName: 'Sam Signer' }, staff);
    expect(confirmed.errors).toBeUndefined();
    const payment = (await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, alice.key).expect(200)).body.data.payment;
    expect(payment).toMatchObject({ provider: 'paypal', approval_url: `https://www.sandbox.paypal.com/checkoutnow?token=${payment.provider_order_id}` });
    expect(paypal.orders.get(payment.provider_order_id)!.amount).toEqual({ currency_code: 'USD', value: '220.00' });
    paypal.approve(payment.provider_order_id);
    expect((await t.rest.get(`/api/v1/payments/paypal/return?token=${payment.provider_order_id}`).expect(200)).text).toContain('Payment received');
    expect((await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, alice.key).expect(200)).body.data).toMatchObject({ status: 'confirmed', payment: { paid_at: expect.stringMatching(/Z$/) } });

    // The money taken back: on hold for staff, the account told, the move audited.
    const reversal = { id: 'WH-REV-BOOKING', event_type: 'PAYMENT.CAPTURE.REVERSED', resource: { id: 'x', supplementary_data: { related_ids: { order_id: payment.provider_order_id } } } };
    await webhook(reversal).expect(200);
    expect((await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, alice.key).expect(200)).body.data).toMatchObject({ status: 'on_hold', hold_reason: 'Payment reversed at PayPal' });
    const mail = await t.gql(SentEmailsDocument, { to: alice.email }, staff);
    expect(mail.data!.sentEmails.items.find((message) => message.subject.includes(booking.number))).toMatchObject({ kind: 'on_hold' });
    const audit = await t.gql(AuditLogDocument, { resourceId: booking.id }, staff);
    expect(audit.data!.auditLog.items[0]).toMatchObject({ action: 'booking.hold', actorLabel: 'system', fromState: 'confirmed', toState: 'on_hold' });
  });

  it('answers 503 when PayPal is down, leaving the quote priced and nothing half-made', async () => {
    const quote = (await t.rest.post('/api/v1/quotes', { source_language: 'de', target_language: 'en', service_type: 'standard', file_ids: [fileId] }, alice.key).expect(201)).body.data;
    const count = async (table: string) => (await t.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;
    const [orders, payments] = [await count('orders'), await count('payments')];
    paypal.mode.down = true;
    const res = await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(503);
    expect(res.body).toEqual({ message: 'Payment provider unavailable.' });
    expect(res.headers['retry-after']).toBe('30');
    expect((await t.rest.get(`/api/v1/quotes/${quote.id}`, alice.key)).body.data.status).toBe('priced');
    expect([await count('orders'), await count('payments')]).toEqual([orders, payments]);
    paypal.mode.down = false;
    await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201);
  });
});

describe('money that reconciles (D26)', () => {
  const paymentRow = async (paypalId: string) =>
    (await t.orm.em.fork().getConnection().execute(`SELECT status, captured_cents, refunded_cents FROM payments WHERE provider_order_id = ?`, [paypalId]))[0];
  afterEach(() => Object.assign(paypal.mode, { captureDelayMs: 0, loseCaptureAnswer: false }));

  it('refuses a cancel while the capture is under way, and the payment wins', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    paypal.mode.captureDelayMs = 400;
    const back = t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).then((res) => res);
    // The capture is held 400 ms at PayPal: the cancel must land inside it.
    await pollUntil(() => paymentRow(paypalId), (row) => row.status === 'capturing', {
      timeoutMs: 2_000,
      intervalMs: 10,
      failure: (row) => `payment ${paypalId} never seen capturing (now ${row.status})`,
    });
    const refused = await t.rest.post(`/api/v1/orders/${order.id}/cancel`, undefined, alice.key).expect(422);
    expect(refused.body.errors).toEqual({ status: ['The payment is being processed.'] });
    expect((await back).headers.location).toBe(`${REDIRECT}?payment=paid&order_id=${order.id}`);
    expect((await orderState(order.id)).status).toBe('processing');
  });

  it('refunds at once a capture that lands on a cancelled order, audited and e-mailed', async () => {
    const { order, paypalId } = await convertOrder();
    await t.rest.post(`/api/v1/orders/${order.id}/cancel`, undefined, alice.key).expect(200);
    expect((await paymentRow(paypalId)).status).toBe('voided');
    const event = { id: 'WH-LATE-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'CAPLATE1', status: 'COMPLETED', supplementary_data: { related_ids: { order_id: paypalId } } } };
    expect((await webhook(event).expect(200)).body).toEqual({ status: 'handled' });

    expect(await paymentRow(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
    expect(paypal.refunds.filter((refund) => refund.captureId === 'CAPLATE1')).toHaveLength(1);
    expect(await orderState(order.id)).toMatchObject({ status: 'cancelled', payment: { refunded_at: expect.stringMatching(/Z$/) } });
    const audit = await t.gql(AuditLogDocument, { resourceId: order.id }, staff);
    expect(audit.data!.auditLog.items[0]).toMatchObject({ action: 'order.late_capture_refunded', fromState: 'cancelled', toState: 'cancelled' });
    const mail = await t.gql(SentEmailsDocument, { to: alice.email }, staff);
    expect(mail.data!.sentEmails.items.find((message) => message.subject.includes(order.number))).toMatchObject({ kind: 'payment_refunded' });
    // PayPal redelivers the event: nothing moves twice.
    expect((await webhook(event).expect(200)).body).toEqual({ status: 'duplicate' });
    expect(paypal.refunds.filter((refund) => refund.captureId === 'CAPLATE1')).toHaveLength(1);
  });

  it('asks again for a capture whose answer was lost, and never captures twice', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    paypal.mode.loseCaptureAnswer = true;
    const back = await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(303);
    expect(back.headers.location).toBe(`${REDIRECT}?payment=processing&order_id=${order.id}`);
    expect(await paymentRow(paypalId)).toMatchObject({ status: 'capturing', captured_cents: 0 });
    expect((await t.rest.post(`/api/v1/orders/${order.id}/cancel`, undefined, alice.key).expect(422)).body.errors).toEqual({ status: ['The payment is being processed.'] });

    paypal.mode.loseCaptureAnswer = false;
    expect(await t.services.payments.reconcile(t.orm.em.fork())).toBe(1);
    expect(await paymentRow(paypalId)).toMatchObject({ status: 'captured', captured_cents: 1234 });
    expect((await orderState(order.id)).status).toBe('processing');
    expect(paypal.orders.get(paypalId)!.status).toBe('COMPLETED');
  });

  it('keeps a refund owed while PayPal is down and pays it back when PayPal returns', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(303);
    paypal.mode.down = true;
    const { errors } = await t.gql(StaffCancelOrderDocument, { id: order.id, reason: 'Client withdrew' }, staff);
    expect(errors).toBeUndefined();
    expect(await paymentRow(paypalId)).toEqual({ status: 'refunding', captured_cents: 1234, refunded_cents: 0 });
    expect((await orderState(order.id)).status).toBe('cancelled');

    paypal.mode.down = false;
    expect(await t.services.payments.reconcile(t.orm.em.fork())).toBe(1);
    expect(await paymentRow(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
    expect(paypal.refunds.filter((refund) => refund.captureId === paypal.orders.get(paypalId)!.captureId)).toHaveLength(1);
  });

  it('takes a capture PayPal says is refunded already (in its own dashboard) as refunded, and asks no more', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(303);
    const captureId = paypal.orders.get(paypalId)!.captureId!;
    paypal.mode.refundedElsewhere.add(captureId);
    const { errors } = await t.gql(StaffCancelOrderDocument, { id: order.id, reason: 'Refunded by phone' }, staff);
    expect(errors).toBeUndefined();
    expect(await paymentRow(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
    expect(await t.services.payments.reconcile(t.orm.em.fork())).toBe(0);
    expect(paypal.refunds.filter((refund) => refund.captureId === captureId)).toHaveLength(0);
  });

  it('keeps a refund owed through a reversal webhook, and settles it once PayPal says the capture is refunded in full', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(303);
    paypal.mode.refundsDown = true;
    expect((await t.gql(StaffCancelOrderDocument, { id: order.id, reason: 'Client withdrew' }, staff)).errors).toBeUndefined();
    expect(await paymentRow(paypalId)).toEqual({ status: 'refunding', captured_cents: 1234, refunded_cents: 0 });

    // A reversal, or a refund made in PayPal's dashboard, of how much the event does not say: the refund stays owed.
    const reversal = { id: 'WH-REV-OWED', event_type: 'PAYMENT.CAPTURE.REFUNDED', resource: { id: 'x', supplementary_data: { related_ids: { order_id: paypalId } } } };
    await webhook(reversal).expect(200);
    expect(await paymentRow(paypalId)).toEqual({ status: 'refunding', captured_cents: 1234, refunded_cents: 0 });
    expect((await orderState(order.id)).status).toBe('cancelled');

    const captureId = paypal.orders.get(paypalId)!.captureId!;
    paypal.mode.refundedElsewhere.add(captureId);
    paypal.mode.refundsDown = false;
    expect(await t.services.payments.reconcile(t.orm.em.fork())).toBe(1);
    expect(await paymentRow(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
    expect(paypal.refunds.filter((refund) => refund.captureId === captureId)).toHaveLength(0);
  });
});
