import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AuditLogDocument,
  ClientBookingRefundedDocument,
  ClientOrderCapturedDocument,
  ClientOrderRefundedDocument,
  CompleteWithHoursDocument,
  ConfirmInterpretationAvailabilityDocument,
  RefundInterpretationBookingDocument,
  RefundOrderDocument,
  SentEmailsDocument,
  StaffCancelInterpretationBookingDocument,
  StaffCancelOrderDocument,
} from '../graphql/generated';
import { setTimeout as delay } from 'node:timers/promises';
import { passStart, requestBooking } from '../helpers/bookings';
import { docx, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { paidOrder as paidSandboxOrder, unpaidOrder } from '../helpers/orders';
import { startPayPalApp, type PayPalApp, type PayPalStandIn } from '../helpers/paypal-app';
import { startTestApp, type GraphQLResult, type TestApp } from '../helpers/test-app';

/**
 * D30: staff refund part or all of what was captured without cancelling, through the PayPal client against a local
 * server that speaks PayPal's API (and the sandbox provider alike): by amount, never past what is left, e-mailed with
 * the reason, audited, shown on both doors, and reconciled (captured = kept + refunded) under concurrent requests.
 */
let app: PayPalApp;
let paypal: PayPalStandIn;
let t: TestApp;
let admin: string;
let desk: string;
let translator: string;
let alice: TestAccount;
let fileId: string;

beforeAll(async () => {
  // No workers: a paid order stays `processing`, so the tests see that a refund leaves the state as it was.
  app = await startPayPalApp({ workers: false });
  ({ t, paypal } = app);
  admin = await createStaffToken(t);
  desk = await createStaffToken(t, StaffRole.DESK);
  translator = await createStaffToken(t, StaffRole.TRANSLATOR);
  alice = await createApprovedAccount(t, admin);
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(1234)] }), 'contract.docx')).id;
});
afterAll(() => app.close());
beforeEach(() => Object.assign(paypal.mode, { refundsDown: false, loseRefundAnswer: false, refuseRefunds: null }));

const webhook = (event: { id: string } & Record<string, unknown>) =>
  t.rest.raw().post('/api/v1/payments/paypal/webhook').set(paypal.signedHeaders(event)).send(event);

/** The payer approves checkout `paypalId` at PayPal and comes back on the return link, which captures it. */
async function payAtPayPal(paypalId: string) {
  paypal.approve(paypalId);
  await t.rest.get(`/api/v1/payments/paypal/return?token=${paypalId}`).expect(200);
}

/** An order of 1234 cents, converted; paid at PayPal unless `pay` is false. */
async function order(pay = true) {
  const { id, number } = await unpaidOrder(t, alice, [fileId], 'standard', { source_language: 'de' });
  const paypalId = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data.payment
    .provider_order_id as string;
  if (pay) await payAtPayPal(paypalId);
  return { id, number, paypalId, captureId: paypal.orders.get(paypalId)!.captureId! };
}

/**
 * A one-hour ASL booking `hoursAhead` from now (tomorrow unless told), its interpreter confirmed by the desk; paid at
 * PayPal unless `pay` is false.
 */
async function booking({ hoursAhead = 24, pay = true } = {}) {
  const scheduled_at = new Date(Date.now() + hoursAhead * 3600_000).toISOString();
  const { id, number } = await requestBooking(t, alice.key, { mode: 'asl', duration_hours: 1, scheduled_at });
  const confirmed = await t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'Sam Signer' }, desk);
  expect(confirmed.errors).toBeUndefined();
  const paypalId = (await restBooking(id)).payment.provider_order_id as string;
  if (pay) await payAtPayPal(paypalId);
  return { id, number, paypalId, captureId: paypal.orders.get(paypalId)!.captureId! };
}

/** The payment's books, checked to reconcile with its refund rows and with what PayPal holds. */
async function books(paypalId: string) {
  const [row] = await t.orm.em
    .fork()
    .getConnection()
    .execute(
      `SELECT p.status, p.captured_cents, p.refunded_cents, p.refund_pending_cents, p.capture_id,
          (SELECT coalesce(sum(r.amount_cents), 0)::int FROM payment_refunds r WHERE r.payment_id = p.id) AS refunds_cents
       FROM payments p WHERE p.provider_order_id = ?`,
      [paypalId],
    );
  expect(row.refunds_cents).toBe(row.refunded_cents);
  if (row.capture_id && row.refund_pending_cents === 0)
    expect(paypal.refundedCents(row.capture_id)).toBe(row.refunded_cents);
  return {
    status: row.status as string,
    captured: row.captured_cents as number,
    refunded: row.refunded_cents as number,
    pending: row.refund_pending_cents as number,
  };
}

const refund = (id: string, amountCents: number, reason = 'Delivered a day late', token = desk) =>
  t.gql(RefundOrderDocument, { id, amountCents, reason }, token);
/** The fees kept by cancels of booking `id` (D32), as audited. */
const feesKept = (id: string) =>
  t.orm.em
    .fork()
    .getConnection()
    .execute<{ fee_cents: number }[]>(
      `SELECT (details->>'fee_cents')::int AS fee_cents FROM audit_entries
        WHERE resource_id = ? AND action = 'booking.cancellation_fee'`,
      [id],
    );
const refusal = (result: GraphQLResult<unknown>) => ({
  code: result.errors?.[0].extensions?.code,
  errors: result.errors?.[0].extensions?.errors,
});
const asked = (captureId: string) =>
  paypal.refunds.filter((made) => made.captureId === captureId).map((made) => made.amount.value);
const restOrder = async (id: string) => (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
const restBooking = async (id: string) =>
  (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data;
const refundBooking = (id: string, amountCents: number, reason = 'The hearing ended early', token = desk) =>
  t.gql(RefundInterpretationBookingDocument, { id, amountCents, reason }, token);

describe('refunds without cancelling (D30)', () => {
  it('refunds part at PayPal by amount: the order keeps its state, both doors show it, the client is told why, staff audited', async () => {
    const paid = await order();
    const result = await refund(paid.id, 500);
    expect(result.errors).toBeUndefined();
    expect(result.data!.refundOrder).toMatchObject({
      status: 'PROCESSING',
      payment: { refundedCents: 500, refundedAt: null, capturedCents: 1234, refundPendingCents: 0 },
    });
    expect(paypal.refunds.filter((made) => made.captureId === paid.captureId)).toEqual([
      expect.objectContaining({
        amount: { currency_code: 'USD', value: '5.00' },
        requestId: expect.stringMatching(/^staff-refund-/),
      }),
    ]);
    expect(await books(paid.paypalId)).toEqual({ status: 'captured', captured: 1234, refunded: 500, pending: 0 });

    expect(await restOrder(paid.id)).toMatchObject({
      status: 'processing',
      payment: { refunded_cents: 500, refunded_at: null },
    });
    const client = await t.gql(ClientOrderRefundedDocument, { id: paid.id }, alice.key);
    expect(client.data!.order).toEqual({ status: 'PROCESSING', payment: { refundedCents: 500, refundedAt: null } });
    // The rest of the books stay the desk's.
    expect(refusal(await t.gql(ClientOrderCapturedDocument, { id: paid.id }, alice.key)).code).toBe('FORBIDDEN');

    const mail = (await t.gql(SentEmailsDocument, { to: alice.email }, admin)).data!.sentEmails.items.find(
      (message) => message.kind === 'refund_made' && message.subject.includes(paid.number),
    );
    expect(mail!.subject).toBe(`Order ${paid.number}: $5.00 refunded`);
    expect(mail!.text).toContain('Why: Delivered a day late');
    const audit = (await t.gql(AuditLogDocument, { resourceId: paid.id }, admin)).data!.auditLog.items[0];
    expect(audit).toMatchObject({
      action: 'order.refund',
      fromState: 'processing',
      toState: 'processing',
      details: { reason: 'Delivered a day late', amount_cents: 500 },
    });
    expect(audit.actorLabel).not.toBe('system');

    // All of the rest: the payment is refunded, the order still processing.
    const rest = await refund(paid.id, 734, 'Goodwill', admin);
    expect(rest.data!.refundOrder).toMatchObject({
      status: 'PROCESSING',
      payment: { refundedCents: 1234, refundedAt: expect.stringMatching(/Z$/) },
    });
    expect(await books(paid.paypalId)).toEqual({ status: 'refunded', captured: 1234, refunded: 1234, pending: 0 });
    expect(refusal(await refund(paid.id, 1))).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { amountCents: ['Nothing is left to refund.'] },
    });
  });

  it('refuses more than is left, before payment, bad amounts and reasons, a translator and a client, changing nothing', async () => {
    const paid = await order();
    expect((await refund(paid.id, 1000)).errors).toBeUndefined();
    const before = paypal.refunds.length;
    expect(refusal(await refund(paid.id, 235))).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { amountCents: ['At most 234 cents ($2.34) is left to refund.'] },
    });
    expect(refusal(await refund(paid.id, 0)).errors).toEqual({ amountCents: [expect.any(String)] });
    expect(refusal(await refund(paid.id, -5)).errors).toEqual({ amountCents: [expect.any(String)] });
    expect(refusal(await refund(paid.id, 10, '')).errors).toEqual({ reason: [expect.any(String)] });
    expect(refusal(await refund(paid.id, 10, 'x'.repeat(501))).errors).toEqual({ reason: [expect.any(String)] });
    expect(refusal(await refund(paid.id, 10, 'Goodwill', translator)).code).toBe('FORBIDDEN');
    expect(refusal(await refund(paid.id, 10, 'Goodwill', alice.key)).code).toBe('FORBIDDEN');
    expect(refusal(await refund('00000000-0000-4000-8000-000000000000', 10)).code).toBe('NOT_FOUND');
    expect(paypal.refunds.length).toBe(before);
    expect(await books(paid.paypalId)).toEqual({ status: 'captured', captured: 1234, refunded: 1000, pending: 0 });

    const unpaid = await order(false);
    expect(refusal(await refund(unpaid.id, 100))).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { payment: ['Nothing has been paid, so nothing can be refunded.'] },
    });
    expect((await restOrder(unpaid.id)).payment).toMatchObject({ refunded_cents: 0, paid_at: null });
  });

  it('a staff cancel after a refund in part refunds only what is left; a refund after it finds nothing left', async () => {
    const paid = await order();
    expect((await refund(paid.id, 300)).errors).toBeUndefined();
    const cancelled = await t.gql(StaffCancelOrderDocument, { id: paid.id, reason: 'Client withdrew' }, desk);
    expect(cancelled.errors).toBeUndefined();
    expect(asked(paid.captureId)).toEqual(['3.00', '9.34']);
    expect(await books(paid.paypalId)).toEqual({ status: 'refunded', captured: 1234, refunded: 1234, pending: 0 });
    const cancelMail = (await t.gql(SentEmailsDocument, { to: alice.email }, admin)).data!.sentEmails.items.find(
      (message) => message.kind === 'cancelled_by_staff' && message.subject.includes(paid.number),
    );
    expect(cancelMail!.text).toContain('$9.34 of your payment is being refunded');
    expect(refusal(await refund(paid.id, 1)).errors).toEqual({ amountCents: ['Nothing is left to refund.'] });
    expect(await restOrder(paid.id)).toMatchObject({ status: 'cancelled', payment: { refunded_cents: 1234 } });
  });

  it('keeps a refund asked while PayPal is down held back, and makes it (once) when PayPal answers again', async () => {
    const paid = await order();
    paypal.mode.refundsDown = true;
    const owed = await refund(paid.id, 400);
    expect(owed.errors).toBeUndefined();
    expect(owed.data!.refundOrder.payment).toMatchObject({ refundedCents: 0, refundPendingCents: 400 });
    // Held back: only 834 is left to ask for.
    expect(refusal(await refund(paid.id, 835)).errors).toEqual({
      amountCents: ['At most 834 cents ($8.34) is left to refund.'],
    });
    paypal.mode.refundsDown = false;
    expect(await t.services.payments.reconcile(t.orm.em.fork())).toBe(1);
    expect(await books(paid.paypalId)).toEqual({ status: 'captured', captured: 1234, refunded: 400, pending: 0 });
    expect(asked(paid.captureId)).toEqual(['4.00']);
    expect(await t.services.payments.reconcile(t.orm.em.fork())).toBe(0);
    expect(asked(paid.captureId)).toEqual(['4.00']);
    expect((await restOrder(paid.id)).payment.refunded_cents).toBe(400);
  });

  it("settles a refund whose answer was lost by PayPal's event for it: counted once, the order not held, the client told why", async () => {
    const paid = await order();
    paypal.mode.loseRefundAnswer = true;
    const owed = await refund(paid.id, 300, 'Glossary not followed');
    expect(owed.errors).toBeUndefined();
    expect(owed.data!.refundOrder.payment).toMatchObject({ refundedCents: 0, refundPendingCents: 300 });
    paypal.mode.loseRefundAnswer = false;
    const [made] = paypal.refunds.filter((one) => one.captureId === paid.captureId);
    // The event names the refund the service asked for, by the custom id it sent: ours, not money gone elsewhere.
    await webhook(paypal.refundedEvent(made)).expect(200);
    expect(await books(paid.paypalId)).toEqual({ status: 'captured', captured: 1234, refunded: 300, pending: 0 });
    expect(await restOrder(paid.id)).toMatchObject({ status: 'processing', hold_reason: null });
    // Nothing is left to ask again, and asking again would find the same refund.
    expect(await t.services.payments.reconcile(t.orm.em.fork())).toBe(0);
    expect(asked(paid.captureId)).toEqual(['3.00']);
    const mails = (await t.gql(SentEmailsDocument, { to: alice.email }, admin)).data!.sentEmails.items.filter(
      (message) => message.subject.includes(paid.number),
    );
    expect(mails.filter((message) => message.kind === 'refund_made').map((message) => message.text)).toEqual([
      expect.stringContaining('Why: Glossary not followed'),
    ]);
    expect(mails.map((message) => message.kind)).not.toContain('on_hold');
  });

  it('answers a refund PayPal refuses as 422 with its reason, and holds nothing back', async () => {
    const paid = await order();
    paypal.mode.refuseRefunds = 'REFUND_TIME_LIMIT_EXCEEDED';
    expect(refusal(await refund(paid.id, 400))).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { amountCents: ['The payment provider did not make the refund: REFUND_TIME_LIMIT_EXCEEDED'] },
    });
    expect(await books(paid.paypalId)).toEqual({ status: 'captured', captured: 1234, refunded: 0, pending: 0 });
    paypal.mode.refuseRefunds = null;
    expect((await refund(paid.id, 1234)).errors).toBeUndefined();
    expect(await books(paid.paypalId)).toEqual({ status: 'refunded', captured: 1234, refunded: 1234, pending: 0 });
  });

  it("refunds a booking's payment in part on both doors; the booking stays confirmed", async () => {
    const confirmed = await booking({ pay: false });
    expect(refusal(await refundBooking(confirmed.id, 100, 'Shorter')).errors).toEqual({
      payment: ['Nothing has been paid, so nothing can be refunded.'],
    });
    await payAtPayPal(confirmed.paypalId);

    const result = await refundBooking(confirmed.id, 5000);
    expect(result.errors).toBeUndefined();
    expect(result.data!.refundInterpretationBooking).toMatchObject({
      status: 'CONFIRMED',
      payment: { refundedCents: 5000, refundedAt: null },
    });
    expect(await restBooking(confirmed.id)).toMatchObject({ status: 'confirmed', payment: { refunded_cents: 5000 } });
    expect(
      (await t.gql(ClientBookingRefundedDocument, { id: confirmed.id }, alice.key)).data!.interpretationBooking,
    ).toEqual({ status: 'CONFIRMED', payment: { refundedCents: 5000 } });
    expect(refusal(await refundBooking(confirmed.id, 100, 'x', translator)).code).toBe('FORBIDDEN');
    const total = (await books(confirmed.paypalId)).captured;
    expect(refusal(await refundBooking(confirmed.id, total - 4999, 'x')).errors).toEqual({
      amountCents: [expect.stringMatching(/^At most \d+ cents/)],
    });
    const mail = (await t.gql(SentEmailsDocument, { to: alice.email }, admin)).data!.sentEmails.items.find(
      (message) => message.kind === 'refund_made' && message.subject.includes(confirmed.number),
    );
    expect(mail!.text).toContain('Why: The hearing ended early');
  });
});

describe("a booking's overtime (D32)", () => {
  it("is refunded from its own payment at PayPal when staff say so, never from the booking's, and shown on both doors", async () => {
    const confirmed = await booking();
    const overtimeFirst = await t.gql(
      RefundInterpretationBookingDocument,
      { id: confirmed.id, amountCents: 100, reason: 'No overtime yet', overtime: true },
      desk,
    );
    expect(refusal(overtimeFirst).errors).toEqual({ payment: ['Nothing has been paid, so nothing can be refunded.'] });
    await passStart(t, confirmed.id);
    const done = await t.gql(CompleteWithHoursDocument, { id: confirmed.id, actualHours: 4 }, desk);
    expect(done.errors).toBeUndefined();
    const [{ provider_order_id: overtimeCheckout }] = await t.orm.em
      .fork()
      .getConnection()
      .execute<{ provider_order_id: string }[]>(
        `SELECT p.provider_order_id FROM payments p JOIN interpretation_bookings b ON b.overtime_payment_id = p.id
          WHERE b.id = ?`,
        [confirmed.id],
      );
    await payAtPayPal(overtimeCheckout);
    const overtimeCents = (await restBooking(confirmed.id)).payment.overtime.amount_cents as number;

    const refunded = await t.gql(
      RefundInterpretationBookingDocument,
      { id: confirmed.id, amountCents: 1000, reason: 'The last half hour was a break', overtime: true },
      desk,
    );
    expect(refunded.errors).toBeUndefined();
    expect(refunded.data!.refundInterpretationBooking).toMatchObject({
      status: 'COMPLETED',
      payment: { refundedCents: 0, overtime: { amountCents: overtimeCents, refundedCents: 1000 } },
    });
    expect(asked(paypal.orders.get(overtimeCheckout)!.captureId!)).toEqual(['10.00']);
    expect(asked(confirmed.captureId)).toEqual([]);
    expect(await books(overtimeCheckout)).toEqual({
      status: 'captured',
      captured: overtimeCents,
      refunded: 1000,
      pending: 0,
    });
    expect((await restBooking(confirmed.id)).payment).toMatchObject({
      refunded_cents: 0,
      overtime: { refunded_cents: 1000 },
    });
    const tooMuch = await t.gql(
      RefundInterpretationBookingDocument,
      { id: confirmed.id, amountCents: overtimeCents, reason: 'All of it', overtime: true },
      desk,
    );
    expect(refusal(tooMuch).errors).toEqual({
      amountCents: [expect.stringMatching(`^At most ${overtimeCents - 1000} cents`)],
    });
    const mail = (await t.gql(SentEmailsDocument, { to: alice.email }, admin)).data!.sentEmails.items.find(
      (message) => message.kind === 'refund_made' && message.text?.includes('The last half hour was a break'),
    );
    expect(mail!.text).toContain(`Overtime of booking ${confirmed.number}`);
  });
});

describe('refunds under concurrency (D26, D30)', () => {
  it('never refunds more than was captured when refunds come at once', async () => {
    const paid = await order();
    const results = await Promise.all([300, 300, 300, 300, 300].map((cents) => refund(paid.id, cents)));
    expect(results.filter((result) => !result.errors)).toHaveLength(4);
    expect(results.filter((result) => result.errors).map(refusal)).toEqual([
      { code: 'BAD_USER_INPUT', errors: { amountCents: ['At most 34 cents ($0.34) is left to refund.'] } },
    ]);
    expect(await books(paid.paypalId)).toEqual({ status: 'captured', captured: 1234, refunded: 1200, pending: 0 });
    expect(paypal.refundedCents(paid.captureId)).toBe(1200);
  });

  it('settles a refund racing a staff cancel at exactly what was captured, whichever wins', async () => {
    for (let round = 0; round < 4; round++) {
      const paid = await order();
      const [refunded, cancelled] = await Promise.all([
        refund(paid.id, 600 + round),
        t.gql(StaffCancelOrderDocument, { id: paid.id, reason: `Race ${round}` }, desk),
      ]);
      expect(cancelled.errors).toBeUndefined();
      // The refund either came first (then the cancel refunds the rest) or found nothing left.
      if (refunded.errors) expect(refusal(refunded).errors).toEqual({ amountCents: ['Nothing is left to refund.'] });
      expect(await books(paid.paypalId)).toEqual({ status: 'refunded', captured: 1234, refunded: 1234, pending: 0 });
      expect(paypal.refundedCents(paid.captureId)).toBe(1234);
      expect((await restOrder(paid.id)).status).toBe('cancelled');
    }
  });

  it('never refunds more of a booking than was captured when two refunds of more than half of it come at once', async () => {
    for (let round = 0; round < 3; round++) {
      const paid = await booking();
      const { captured } = await books(paid.paypalId);
      const more = Math.floor(captured / 2) + 1 + round;
      const results = await Promise.all([refundBooking(paid.id, more), refundBooking(paid.id, more)]);
      expect(results.filter((result) => !result.errors)).toHaveLength(1);
      expect(results.filter((result) => result.errors).map(refusal)).toEqual([
        {
          code: 'BAD_USER_INPUT',
          errors: { amountCents: [expect.stringMatching(new RegExp(`^At most ${captured - more} cents `))] },
        },
      ]);
      // captured = kept + refunded: the one refund made, at PayPal as in the books; the booking still confirmed.
      expect(await books(paid.paypalId)).toEqual({ status: 'captured', captured, refunded: more, pending: 0 });
      expect(paypal.refundedCents(paid.captureId)).toBe(more);
      expect(await restBooking(paid.id)).toMatchObject({ status: 'confirmed', payment: { refunded_cents: more } });
    }
  });

  it('settles a booking refund racing a staff cancel that keeps a fee at exactly what was captured, whichever wins', async () => {
    for (let round = 0; round < 4; round++) {
      // 36 hours ahead: a cancel gives back half of what is left and keeps the other half as its fee (D32).
      const paid = await booking({ hoursAhead: 36 });
      const { captured } = await books(paid.paypalId);
      const asked = Math.floor(captured / 4) + round;
      const refunding = (afterMs: number) => delay(afterMs).then(() => refundBooking(paid.id, asked, `Race ${round}`));
      const cancelling = (afterMs: number) =>
        delay(afterMs).then(() =>
          t.gql(StaffCancelInterpretationBookingDocument, { id: paid.id, reason: `Race ${round}` }, desk),
        );
      // In turn, each a moment ahead of the other (the cancel then comes while the refund is asked of PayPal):
      // whichever takes the booking's lock first, the other sees what it left.
      const [refunded, cancelled] = await Promise.all(
        round % 2 ? [refunding(0), cancelling(40)] : [refunding(40), cancelling(0)],
      );
      expect(cancelled.errors).toBeUndefined();
      // A cancel keeping a fee leaves the payment captured, so the refund is made either way, from what is left.
      expect(refunded.errors).toBeUndefined();
      const [{ fee_cents: fee }] = await feesKept(paid.id);
      const refundFirst = fee === Math.floor((captured - asked) / 2);
      if (!refundFirst) expect(fee).toBe(Math.floor(captured / 2));
      const settled = await books(paid.paypalId);
      // captured = kept + refunded: the fee of the cancel, less what the refund then gave back of it when it came second.
      expect(settled).toEqual({
        status: 'captured',
        captured,
        refunded: captured - (refundFirst ? fee : fee - asked),
        pending: 0,
      });
      expect(paypal.refundedCents(paid.captureId)).toBe(settled.refunded);
      expect(await restBooking(paid.id)).toMatchObject({
        status: 'cancelled',
        payment: { refunded_cents: settled.refunded },
      });
    }
  });

  it('settles a refund racing the capture webhook: refused before the capture, made after it, never lost', async () => {
    for (let round = 0; round < 4; round++) {
      const unpaid = await order(false);
      // The payer's capture went through at PayPal; its event comes as staff refund.
      const captureId = `CAPRACE${round}${Date.now()}`;
      Object.assign(paypal.orders.get(unpaid.paypalId)!, { status: 'COMPLETED', captureId });
      const event = {
        id: `WH-RACE-${captureId}`,
        event_type: 'PAYMENT.CAPTURE.COMPLETED',
        resource: {
          id: captureId,
          status: 'COMPLETED',
          supplementary_data: { related_ids: { order_id: unpaid.paypalId } },
        },
      };
      const [hook, refunded] = await Promise.all([webhook(event), refund(unpaid.id, 200)]);
      expect(hook.status).toBe(200);
      const made = !refunded.errors;
      if (!made)
        expect(refusal(refunded).errors).toEqual({ payment: ['Nothing has been paid, so nothing can be refunded.'] });
      expect(await books(unpaid.paypalId)).toEqual({
        status: 'captured',
        captured: 1234,
        refunded: made ? 200 : 0,
        pending: 0,
      });
      expect(paypal.refundedCents(captureId)).toBe(made ? 200 : 0);
      expect(await restOrder(unpaid.id)).toMatchObject({
        status: 'processing',
        payment: { refunded_cents: made ? 200 : 0 },
      });
    }
  });
});

describe('refunds through the sandbox provider (D30)', () => {
  let s: TestApp;
  let bob: TestAccount;
  let staff: string;
  beforeAll(async () => {
    s = await startTestApp();
    staff = await createStaffToken(s, StaffRole.DESK);
    bob = await createApprovedAccount(s, await createStaffToken(s));
  });
  afterAll(() => s.close());

  it('refunds in part and then the rest, the order keeping its state', async () => {
    const file = await uploadFile(s, bob.key, await docx({ paragraphs: [words(300)] }), 'letter.docx');
    const id = await paidSandboxOrder(s, bob, [file.id]);
    const total = (await s.rest.get(`/api/v1/orders/${id}`, bob.key).expect(200)).body.data.total_cents as number;
    const first = await s.gql(RefundOrderDocument, { id, amountCents: 100, reason: 'Typo in a name' }, staff);
    expect(first.data!.refundOrder.payment).toMatchObject({ refundedCents: 100, refundedAt: null });
    const rest = await s.gql(RefundOrderDocument, { id, amountCents: total - 100, reason: 'Goodwill' }, staff);
    expect(rest.data!.refundOrder.payment).toMatchObject({
      refundedCents: total,
      refundedAt: expect.stringMatching(/Z$/),
    });
    const answer = (await s.rest.get(`/api/v1/orders/${id}`, bob.key).expect(200)).body.data;
    expect(answer.status).not.toBe('cancelled');
    expect(answer.payment).toMatchObject({ refunded_cents: total, refunded_at: expect.stringMatching(/Z$/) });
  });
});
