import {
  AuditLogDocument,
  CancelOrderDocument,
  ClientOrderCapturedDocument,
  ConfirmInterpretationAvailabilityDocument,
  OrderPaymentBooksDocument,
  SentEmailsDocument,
  StaffCancelOrderDocument,
  StaffOrderPaymentDocument,
} from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { startPayPalApp, type PayPalApp, type PayPalStandIn } from '../helpers/paypal-app';
import { pollUntil } from '../helpers/poll';
import { quoteFor } from '../helpers/terms';
import type { TestApp } from '../helpers/test-app';

/** The PayPal provider against a local server that speaks PayPal's API (D9). */
let app: PayPalApp;
let paypal: PayPalStandIn;
let t: TestApp;
let staff: string;
let alice: TestAccount;
let fileId: string;

beforeAll(async () => {
  app = await startPayPalApp();
  ({ t, paypal } = app);
  staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(1234)] }), 'contract.docx')).id;
});
afterAll(() => app.close());
beforeEach(() => {
  Object.assign(paypal.mode, { down: false, declineCapture: false, refundsDown: false, refuseRefunds: null });
});

const REDIRECT = 'https://portal.example.test/back';
async function convertOrder(redirect: string | undefined = REDIRECT) {
  const quote = await quoteFor(t, alice, fileId);
  const res = await t.rest
    .post(`/api/v1/quotes/${quote.id}/convert`, redirect ? { redirect_url: redirect } : undefined, alice.key)
    .expect(201);
  const order = (await t.rest.get(`/api/v1/orders/${res.body.data.id}`, alice.key).expect(200)).body.data;
  return {
    quote,
    order,
    approvalUrl: res.body.provider_approval_url as string,
    paypalId: order.payment.provider_order_id as string,
  };
}
const orderState = async (id: string) => (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
const webhook = (event: { id: string } & Record<string, unknown>, forged = false) =>
  t.rest.raw().post('/api/v1/payments/paypal/webhook').set(paypal.signedHeaders(event, forged)).send(event);
const approvedEvent = (paypalId: string) => ({
  id: `WH-${Math.random().toString(36).slice(2)}`,
  event_type: 'CHECKOUT.ORDER.APPROVED',
  resource: { id: paypalId, status: 'APPROVED' },
});
const captures = () => paypal.calls.filter((c) => /\/capture$/.test(c)).length;
/** Refunds the service asked PayPal for (a dashboard refund has no request id). */
const refundsAsked = (captureId: string) =>
  paypal.refunds.filter((refund) => refund.captureId === captureId && refund.requestId);

describe('PayPal checkout', () => {
  it('creates a CAPTURE order for the total with the payer-action link, then captures on return', async () => {
    const tokenCallsBefore = paypal.calls.filter((c) => c === 'POST /v1/oauth2/token').length;
    const { order, approvalUrl, paypalId } = await convertOrder();
    expect(approvalUrl).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${paypalId}`);
    const created = paypal.orders.get(paypalId)!;
    expect(created.amount).toEqual({ currency_code: 'USD', value: '12.34' });
    expect(created.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.returnUrl).toBe('http://127.0.0.1:3000/api/v1/payments/paypal/return');
    expect(order.payment).toMatchObject({
      provider: 'paypal',
      provider_order_id: paypalId,
      approval_url: approvalUrl,
      paid_at: null,
    });

    paypal.approve(paypalId);
    const back = await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}&PayerID=PAYER1`).expect(303);
    expect(back.headers.location).toBe(`${REDIRECT}?payment=paid&order_id=${order.id}`);
    expect(await orderState(order.id)).toMatchObject({
      status: 'processing',
      payment: { paid_at: expect.stringMatching(/Z$/) },
    });
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
    const [back, hook] = await Promise.all([
      t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`),
      webhook(approvedEvent(paypalId)),
    ]);
    expect(back.status).toBe(303);
    expect(hook.status).toBe(200);
    expect(captures() - before).toBe(1);
    const state = await orderState(order.id);
    expect(state.status).toBe('processing');
    const jobs = await t.orm.em
      .fork()
      .getConnection()
      .execute(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'translate-order' AND data->>'orderId' = ?`, [
        order.id,
      ]);
    expect(jobs[0].n).toBe(1);
  });

  it('marks paid from PAYMENT.CAPTURE.COMPLETED without capturing again', async () => {
    const { order, paypalId } = await convertOrder();
    const before = captures();
    const event = {
      id: 'WH-CAP-1',
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { id: 'CAPX1', status: 'COMPLETED', supplementary_data: { related_ids: { order_id: paypalId } } },
    };
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
    const unsigned = await t.rest
      .raw()
      .post('/api/v1/payments/paypal/webhook')
      .send(approvedEvent(paypalId))
      .expect(400);
    expect(unsigned.body).toEqual({ message: 'Invalid webhook signature.' });
    expect((await orderState(order.id)).status).toBe('pending_payment');
    // Not even recorded: the genuine event with the same id is still handled when it comes.
    const rows = await t.orm.em
      .fork()
      .getConnection()
      .execute(`SELECT count(*)::int AS n FROM webhook_events WHERE event_id = ?`, [event.id]);
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
    const reversal = {
      id: 'WH-REV-1',
      event_type: 'PAYMENT.CAPTURE.REVERSED',
      resource: { id: 'x', supplementary_data: { related_ids: { order_id: paypalId } } },
    };
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
    expect(paypal.refunds.at(-1)).toMatchObject({
      captureId: paypal.orders.get(paypalId)!.captureId,
      amount: { value: '12.34', currency_code: 'USD' },
    });
  });

  it("takes a booking's payment the same way once staff confirm an interpreter", async () => {
    const booking = (
      await t.rest
        .post(
          '/api/v1/interpretation-bookings',
          {
            source_language: 'es',
            target_language: 'en',
            mode: 'asl',
            scheduled_at: '2030-06-01T10:00:00+02:00',
            duration_hours: 1,
          },
          alice.key,
        )
        .expect(201)
    ).body.data;
    const confirmed = await t.gql(
      ConfirmInterpretationAvailabilityDocument,
      { id: booking.id, interpreterName: 'Sam Signer' },
      staff,
    );
    expect(confirmed.errors).toBeUndefined();
    const payment = (await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, alice.key).expect(200)).body.data
      .payment;
    expect(payment).toMatchObject({
      provider: 'paypal',
      approval_url: `https://www.sandbox.paypal.com/checkoutnow?token=${payment.provider_order_id}`,
    });
    expect(paypal.orders.get(payment.provider_order_id)!.amount).toEqual({ currency_code: 'USD', value: '220.00' });
    paypal.approve(payment.provider_order_id);
    expect(
      (await t.rest.get(`/api/v1/payments/paypal/return?token=${payment.provider_order_id}`).expect(200)).text,
    ).toContain('Payment received');
    expect(
      (await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, alice.key).expect(200)).body.data,
    ).toMatchObject({ status: 'confirmed', payment: { paid_at: expect.stringMatching(/Z$/) } });

    // The money taken back: on hold for staff, the account told, the move audited.
    const reversal = {
      id: 'WH-REV-BOOKING',
      event_type: 'PAYMENT.CAPTURE.REVERSED',
      resource: { id: 'x', supplementary_data: { related_ids: { order_id: payment.provider_order_id } } },
    };
    await webhook(reversal).expect(200);
    expect(
      (await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, alice.key).expect(200)).body.data,
    ).toMatchObject({ status: 'on_hold', hold_reason: 'Payment reversed at PayPal' });
    const mail = await t.gql(SentEmailsDocument, { to: alice.email }, staff);
    expect(mail.data!.sentEmails.items.find((message) => message.subject.includes(booking.number))).toMatchObject({
      kind: 'on_hold',
    });
    const audit = await t.gql(AuditLogDocument, { resourceId: booking.id }, staff);
    expect(audit.data!.auditLog.items[0]).toMatchObject({
      action: 'booking.hold',
      actorLabel: 'system',
      fromState: 'confirmed',
      toState: 'on_hold',
    });
  });

  it('answers 503 when PayPal is down, leaving the quote priced and nothing half-made', async () => {
    const quote = await quoteFor(t, alice, fileId);
    const count = async (table: string) =>
      (await t.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;
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
    (
      await t.orm.em
        .fork()
        .getConnection()
        .execute(`SELECT status, captured_cents, refunded_cents FROM payments WHERE provider_order_id = ?`, [paypalId])
    )[0];
  afterEach(() => Object.assign(paypal.mode, { captureDelayMs: 0, loseCaptureAnswer: false }));

  it('refuses a cancel while the capture is under way, and the payment wins', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    paypal.mode.captureDelayMs = 400;
    const back = t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).then((res) => res);
    // The capture is held 400 ms at PayPal: the cancel must land inside it.
    await pollUntil(
      () => paymentRow(paypalId),
      (row) => row.status === 'capturing',
      {
        timeoutMs: 2_000,
        intervalMs: 10,
        failure: (row) => `payment ${paypalId} never seen capturing (now ${row.status})`,
      },
    );
    const refused = await t.rest.post(`/api/v1/orders/${order.id}/cancel`, undefined, alice.key).expect(422);
    expect(refused.body.errors).toEqual({ status: ['The payment is being processed.'] });
    expect((await back).headers.location).toBe(`${REDIRECT}?payment=paid&order_id=${order.id}`);
    expect((await orderState(order.id)).status).toBe('processing');
  });

  it('refunds at once a capture that lands on a cancelled order, audited and e-mailed', async () => {
    const { order, paypalId } = await convertOrder();
    await t.rest.post(`/api/v1/orders/${order.id}/cancel`, undefined, alice.key).expect(200);
    expect((await paymentRow(paypalId)).status).toBe('voided');
    // The payer's capture went through at PayPal all the same.
    Object.assign(paypal.orders.get(paypalId)!, { status: 'COMPLETED', captureId: 'CAPLATE1' });
    const event = {
      id: 'WH-LATE-1',
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { id: 'CAPLATE1', status: 'COMPLETED', supplementary_data: { related_ids: { order_id: paypalId } } },
    };
    expect((await webhook(event).expect(200)).body).toEqual({ status: 'handled' });

    expect(await paymentRow(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
    expect(paypal.refunds.filter((refund) => refund.captureId === 'CAPLATE1')).toHaveLength(1);
    expect(await orderState(order.id)).toMatchObject({
      status: 'cancelled',
      payment: { refunded_at: expect.stringMatching(/Z$/) },
    });
    const audit = await t.gql(AuditLogDocument, { resourceId: order.id }, staff);
    expect(audit.data!.auditLog.items[0]).toMatchObject({
      action: 'order.late_capture_refunded',
      fromState: 'cancelled',
      toState: 'cancelled',
    });
    const mail = await t.gql(SentEmailsDocument, { to: alice.email }, staff);
    // Told why the money goes back, then (D28) that it went back.
    expect(
      mail
        .data!.sentEmails.items.filter((message) => message.subject.includes(order.number))
        .map((message) => message.kind),
    ).toEqual(['refund_made', 'payment_refunded']);
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
    expect(
      (await t.rest.post(`/api/v1/orders/${order.id}/cancel`, undefined, alice.key).expect(422)).body.errors,
    ).toEqual({ status: ['The payment is being processed.'] });

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
    expect(paypal.refunds.filter((refund) => refund.captureId === paypal.orders.get(paypalId)!.captureId)).toHaveLength(
      1,
    );
  });

  it('takes a capture PayPal says is refunded already (in its own dashboard) as refunded, and asks no more', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(303);
    const captureId = paypal.orders.get(paypalId)!.captureId!;
    paypal.refundInDashboard(captureId); // its webhook never comes
    const { errors } = await t.gql(StaffCancelOrderDocument, { id: order.id, reason: 'Refunded by phone' }, staff);
    expect(errors).toBeUndefined();
    expect(await paymentRow(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
    expect(await t.services.payments.reconcile(t.orm.em.fork())).toBe(0);
    expect(refundsAsked(captureId)).toHaveLength(0);
    expect(paypal.calls).toContain(`GET /v2/payments/captures/${captureId}`);
  });

  it('keeps a refund owed through a reversal webhook, and settles it once PayPal says the capture is refunded in full', async () => {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(303);
    paypal.mode.refundsDown = true;
    expect(
      (await t.gql(StaffCancelOrderDocument, { id: order.id, reason: 'Client withdrew' }, staff)).errors,
    ).toBeUndefined();
    expect(await paymentRow(paypalId)).toEqual({ status: 'refunding', captured_cents: 1234, refunded_cents: 0 });

    // A reversal, or a refund made in PayPal's dashboard, of how much the event does not say: the refund stays owed.
    const reversal = {
      id: 'WH-REV-OWED',
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      resource: { id: 'x', supplementary_data: { related_ids: { order_id: paypalId } } },
    };
    await webhook(reversal).expect(200);
    expect(await paymentRow(paypalId)).toEqual({ status: 'refunding', captured_cents: 1234, refunded_cents: 0 });
    expect((await orderState(order.id)).status).toBe('cancelled');

    const captureId = paypal.orders.get(paypalId)!.captureId!;
    paypal.refundInDashboard(captureId);
    paypal.mode.refundsDown = false;
    expect(await t.services.payments.reconcile(t.orm.em.fork())).toBe(1);
    expect(await paymentRow(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
    expect(refundsAsked(captureId)).toHaveLength(0);
  });
});

describe('refunds by amount (D26)', () => {
  const books = async (paypalId: string) => {
    const [row] = await t.orm.em
      .fork()
      .getConnection()
      .execute(
        `SELECT p.status, p.captured_cents, p.refunded_cents, (SELECT coalesce(sum(r.amount_cents), 0)::int FROM payment_refunds r WHERE r.payment_id = p.id) AS refunds_cents
       FROM payments p WHERE p.provider_order_id = ?`,
        [paypalId],
      );
    // Each refund row adds up to the payment's refunded amount, whatever happened.
    expect(row.refunds_cents).toBe(row.refunded_cents);
    return { status: row.status, captured_cents: row.captured_cents, refunded_cents: row.refunded_cents };
  };
  async function paidOrder() {
    const { order, paypalId } = await convertOrder();
    paypal.approve(paypalId);
    await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(303);
    return { order, paypalId, captureId: paypal.orders.get(paypalId)!.captureId! };
  }

  it("counts a refund in part made in PayPal, and the client's cancel then refunds exactly the rest", async () => {
    const { order, paypalId, captureId } = await paidOrder();
    const { event } = paypal.refundInDashboard(captureId, 100);
    expect((await webhook(event).expect(200)).body).toEqual({ status: 'handled' });
    expect(await books(paypalId)).toEqual({ status: 'captured', captured_cents: 1234, refunded_cents: 100 });
    expect(await orderState(order.id)).toMatchObject({
      status: 'on_hold',
      hold_reason: 'Payment refunded at PayPal',
      payment: { refunded_at: null },
    });

    const cancelled = await t.rest.post(`/api/v1/orders/${order.id}/cancel`, undefined, alice.key).expect(200);
    expect(cancelled.body.data).toMatchObject({
      status: 'cancelled',
      payment: { refunded_at: expect.stringMatching(/Z$/) },
    });
    expect(refundsAsked(captureId).map((refund) => refund.amount)).toEqual([{ value: '11.34', currency_code: 'USD' }]);
    expect(paypal.refundedCents(captureId)).toBe(1234);
    expect(await books(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });

    // PayPal's event for the service's own refund changes nothing.
    expect((await webhook(paypal.refundedEvent(refundsAsked(captureId)[0])).expect(200)).body).toEqual({
      status: 'handled',
    });
    expect(await books(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
  });

  it('adds two refunds in part up, counts a redelivered refund once, and a GraphQL cancel refunds the rest', async () => {
    const { order, paypalId, captureId } = await paidOrder();
    const first = paypal.refundInDashboard(captureId, 100);
    const second = paypal.refundInDashboard(captureId, 234);
    await webhook(first.event).expect(200);
    await webhook(second.event).expect(200);
    // The same refund again: the same event is a duplicate; under a new event id it is counted once by its refund id.
    expect((await webhook(first.event).expect(200)).body).toEqual({ status: 'duplicate' });
    expect((await webhook({ ...first.event, id: `${first.event.id}-AGAIN` }).expect(200)).body).toEqual({
      status: 'handled',
    });
    expect(await books(paypalId)).toEqual({ status: 'captured', captured_cents: 1234, refunded_cents: 334 });

    // Staff see the books; a client sees what was refunded (D30), and is refused the rest.
    const desk = await t.gql(StaffOrderPaymentDocument, { id: order.id }, staff);
    expect(desk.data!.staffOrder!.payment).toEqual({
      status: 'CAPTURED',
      capturedCents: 1234,
      refundedCents: 334,
      currency: 'USD',
      refundRefusal: null,
      refundedAt: null,
    });
    expect((await t.gql(OrderPaymentBooksDocument, { id: order.id }, alice.key)).data!.order!.payment).toEqual({
      refundedCents: 334,
    });
    expect((await t.gql(ClientOrderCapturedDocument, { id: order.id }, alice.key)).errors?.[0].extensions?.code).toBe(
      'FORBIDDEN',
    );

    const { errors } = await t.gql(CancelOrderDocument, { id: order.id }, alice.key);
    expect(errors).toBeUndefined();
    expect(refundsAsked(captureId).map((refund) => refund.amount.value)).toEqual(['9.00']);
    expect(await books(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
  });

  it('asks for all that is left when a refund in part at PayPal has not reached the books yet', async () => {
    const { order, paypalId, captureId } = await paidOrder();
    const late = paypal.refundInDashboard(captureId, 100); // its event is delayed
    expect(
      (await t.gql(StaffCancelOrderDocument, { id: order.id, reason: 'Client withdrew' }, staff)).errors,
    ).toBeUndefined();
    // 12.34 was refused (only 11.34 left), the capture looked up, then all that is left refunded.
    expect(refundsAsked(captureId).map((refund) => refund.amount.value)).toEqual(['11.34']);
    expect(paypal.calls).toContain(`GET /v2/payments/captures/${captureId}`);
    expect(paypal.refundedCents(captureId)).toBe(1234);
    expect(await books(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
    // The delayed event comes: nothing is counted twice.
    await webhook(late.event).expect(200);
    expect(await books(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
  });

  it('settles a refund event it cannot trust by looking the capture up', async () => {
    const { paypalId, captureId } = await paidOrder();
    const { event } = paypal.refundInDashboard(captureId);
    // No amount to trust (another currency): PayPal's capture says all of it went back.
    const untrusted = { ...event, resource: { ...event.resource, amount: { currency_code: 'EUR', value: '1.00' } } };
    await webhook(untrusted).expect(200);
    expect(paypal.calls.at(-1)).toBe(`GET /v2/payments/captures/${captureId}`);
    expect(await books(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
  });

  it('shows a refund PayPal refuses for good as refund refused to staff, audited, and never asks again', async () => {
    const { order, paypalId, captureId } = await paidOrder();
    paypal.mode.refuseRefunds = 'REFUND_TIME_LIMIT_EXCEEDED';
    expect(
      (await t.gql(StaffCancelOrderDocument, { id: order.id, reason: 'Client withdrew' }, staff)).errors,
    ).toBeUndefined();
    expect(await books(paypalId)).toEqual({ status: 'refund_refused', captured_cents: 1234, refunded_cents: 0 });
    const desk = await t.gql(StaffOrderPaymentDocument, { id: order.id }, staff);
    expect(desk.data!.staffOrder).toMatchObject({
      status: 'CANCELLED',
      payment: {
        status: 'REFUND_REFUSED',
        refundRefusal: 'REFUND_TIME_LIMIT_EXCEEDED',
        refundedCents: 0,
        refundedAt: null,
      },
    });
    const [{ id: paymentId }] = await t.orm.em
      .fork()
      .getConnection()
      .execute(`SELECT id FROM payments WHERE provider_order_id = ?`, [paypalId]);
    const audit = await t.gql(AuditLogDocument, { resourceId: paymentId }, staff);
    expect(audit.data!.auditLog.items[0]).toMatchObject({
      action: 'payment.refund_refused',
      actorLabel: 'system',
      fromState: 'refunding',
      toState: 'refund_refused',
      details: { reason: 'REFUND_TIME_LIMIT_EXCEEDED', left_cents: 1234 },
    });

    const asked = paypal.calls.filter((call) => call.endsWith('/refund')).length;
    expect(await t.services.payments.reconcile(t.orm.em.fork())).toBe(0);
    expect(paypal.calls.filter((call) => call.endsWith('/refund')).length).toBe(asked);

    // Staff refund it by hand in PayPal's dashboard: its event settles the books.
    paypal.mode.refuseRefunds = null;
    await webhook(paypal.refundInDashboard(captureId).event).expect(200);
    expect(await books(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
  });

  it('never refunds more than was captured when a cancel and a refund event come at once', async () => {
    for (let round = 0; round < 6; round++) {
      const { order, paypalId, captureId } = await paidOrder();
      const { event } = paypal.refundInDashboard(captureId, 100 + round);
      const [cancel, hook] = await Promise.all([
        t.gql(StaffCancelOrderDocument, { id: order.id, reason: `Race ${round}` }, staff),
        // Half the rounds the event comes first, half the cancel does.
        new Promise((resolve) => setTimeout(resolve, round % 2 ? 0 : 15)).then(() => webhook(event)),
      ]);
      expect(cancel.errors).toBeUndefined();
      expect(hook.status).toBe(200);
      expect(await books(paypalId)).toEqual({ status: 'refunded', captured_cents: 1234, refunded_cents: 1234 });
      expect(paypal.refundedCents(captureId)).toBe(1234);
      // What the service asked for, and got, is exactly what was left after the dashboard's refund.
      expect(
        refundsAsked(captureId).reduce((sum, refund) => sum + Math.round(Number(refund.amount.value) * 100), 0),
      ).toBe(1234 - 100 - round);
    }
  });
});
