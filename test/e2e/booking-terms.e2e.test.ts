import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AuditLogFilteredDocument,
  BookingInterpreterDocument,
  BookingDeadlinesDocument,
  BookingPolicyDocument,
  ClientBookingFeeNowDocument,
  HoldInterpretationBookingDocument,
  RescheduleInterpretationBookingDocument,
  CompleteWithHoursDocument,
  ConfirmInterpretationAvailabilityDocument,
  SentEmailsDocument,
  StaffBookingFeeNowDocument,
  StaffCancelWithPolicyDocument,
} from '../graphql/generated';
import { requestBooking } from '../helpers/bookings';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { passStart } from '../helpers/bookings';
import { startPayPalApp, type PayPalApp, type PayPalStandIn } from '../helpers/paypal-app';
import type { TestApp } from '../helpers/test-app';

/** D32: the terms of a booking: what a late cancel costs, and what a session that ran long is charged. */
let app: PayPalApp;
let paypal: PayPalStandIn;
let t: TestApp;
let desk: string;
let alice: TestAccount;
beforeAll(async () => {
  // Payments go through the PayPal provider against a local server that speaks PayPal's API.
  app = await startPayPalApp({ workers: false });
  ({ t, paypal } = app);
  desk = await createStaffToken(t, StaffRole.DESK);
  alice = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(() => app.close());

const HOUR = 3600_000;
const get = async (id: string) =>
  (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data;
/** The payer approves at PayPal and comes back: the capture follows the return, as in production. */
const payAtPayPal = async (providerOrderId: string) => {
  paypal.approve(providerOrderId);
  await t.rest.get(`/api/v1/payments/paypal/return?token=${providerOrderId}&PayerID=PAYER1`).expect(200);
};
const mailTo = async (email: string) =>
  (await t.gql(SentEmailsDocument, { to: email, perPage: 100 }, desk)).data!.sentEmails.items;

/** A two-hour video booking ($170.00), confirmed by staff and paid by the client: `confirmed`. */
async function paidBooking(fields: Record<string, unknown> = {}): Promise<{ id: string; number: string }> {
  const booking = await requestBooking(t, alice.key, fields);
  const confirmed = await t.gql(
    ConfirmInterpretationAvailabilityDocument,
    { id: booking.id, interpreterName: 'Ana Ruiz' },
    desk,
  );
  expect(confirmed.errors).toBeUndefined();
  await payAtPayPal((await get(booking.id)).payment.provider_order_id);
  expect((await get(booking.id)).status).toBe('confirmed');
  return booking;
}

/**
 * The clock as the test moves it: `Date.now()` held at `now`, and the booking's start put `hoursBefore` after it, so a
 * fee at 24 h exactly is computed at 24 h exactly, not a few milliseconds under.
 */
async function withStartIn<T>(id: string, hoursBefore: number, work: () => Promise<T>): Promise<T> {
  const now = Date.now();
  await t.orm.em
    .fork()
    .getConnection()
    .execute(`UPDATE interpretation_bookings SET scheduled_at = ? WHERE id = ?`, [
      new Date(now + hoursBefore * HOUR),
      id,
    ]);
  const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
  try {
    return await work();
  } finally {
    clock.mockRestore();
  }
}

const cancel = (id: string, waiveFee?: boolean) =>
  t.gql(StaffCancelWithPolicyDocument, { id, reason: 'The court adjourned.', waiveFee }, desk);

describe('the cancellation policy (D32)', () => {
  it('is published in GET /pricing and in GraphQL', async () => {
    const rest = (await t.rest.get('/api/v1/pricing').expect(200)).body.data.booking_policy;
    expect(rest).toEqual({
      free_cancellation_statuses: ['requested', 'awaiting_payment'],
      tiers: [
        { hours_before_start_at_least: 48, refund_percent: 100 },
        { hours_before_start_at_least: 24, refund_percent: 50 },
        { hours_before_start_at_least: 0, refund_percent: 0 },
      ],
      waivable_by_staff: true,
    });
    const gql = await t.gql(BookingPolicyDocument, {});
    expect(gql.data!.pricing.bookingPolicy.tiers.map((tier) => tier.refundPercent)).toEqual([100, 50, 0]);
    expect(gql.data!.pricing.bookingPolicy.freeCancellationStatuses).toEqual(['REQUESTED', 'AWAITING_PAYMENT']);
  });

  it.each([
    ['48 h 0 min', 48, 17000, null],
    ['47 h 59 min', 47 + 59 / 60, 8500, 'a cancellation fee of $85.00 (50% of what was paid)'],
    ['24 h 0 min', 24, 8500, 'a cancellation fee of $85.00 (50% of what was paid)'],
    ['23 h 59 min', 23 + 59 / 60, 0, 'a cancellation fee of $170.00 (100% of what was paid)'],
  ])('refunds a paid booking cancelled %s before its start as the policy says', async (_, hours, refunded, fee) => {
    const { id, number } = await paidBooking();
    const res = await withStartIn(id, hours, () => cancel(id));
    expect(res.errors).toBeUndefined();
    const after = await get(id);
    expect(after.status).toBe('cancelled');
    expect(after.payment.refunded_cents).toBe(refunded);
    const mail = (await mailTo(alice.email)).find((m) => m.kind === 'cancelled_by_staff' && m.text?.includes(number))!;
    if (fee) expect(mail.text).toContain(fee);
    else expect(mail.text).toContain('no cancellation fee');
    const audit = await t.gql(AuditLogFilteredDocument, { resourceId: id, action: 'booking.cancellation_fee' }, desk);
    expect(audit.data!.auditLog.items[0].details).toMatchObject({
      fee_cents: 17000 - refunded,
      refund_cents: refunded,
      waived: false,
    });
  });

  it('lets staff waive the fee: all of it back, and the e-mail and the audit say so', async () => {
    // Written at -05:00: the e-mail shows its moments there, with UTC beside them (D29).
    const { id, number } = await paidBooking({ scheduled_at: '2031-02-03T09:00:00-05:00' });
    expect((await withStartIn(id, 2, () => cancel(id, true))).errors).toBeUndefined();
    expect((await get(id)).payment.refunded_cents).toBe(17000);
    const mail = (await mailTo(alice.email)).find((m) => m.kind === 'cancelled_by_staff' && m.text?.includes(number))!;
    // The moment of the cancel and the deadline it missed, in the booking's offset with UTC (D29), not hours before.
    expect(mail.text).toMatch(
      /The cancellation fee of \$170\.00 \(cancelled \d{4}-\d\d-\d\d \d\d:\d\d UTC-05:00 \(.+ UTC\), after the deadline of .+ UTC-05:00 \(.+ UTC\)\) was waived\./,
    );
    expect(mail.text).not.toContain('before the start');
    const audit = await t.gql(AuditLogFilteredDocument, { resourceId: id, action: 'booking.cancellation_fee' }, desk);
    expect(audit.data!.auditLog.items[0].details).toMatchObject({ fee_cents: 0, waived: true });
  });

  it('cancels an unpaid booking free, on both doors, as the contract says', async () => {
    const requested = await requestBooking(t, alice.key);
    await withStartIn(requested.id, 1, async () =>
      t.rest.post(`/api/v1/interpretation-bookings/${requested.id}/cancel`, undefined, alice.key).expect(200),
    );
    const other = await requestBooking(t, alice.key);
    expect((await withStartIn(other.id, 1, () => cancel(other.id))).errors).toBeUndefined();
    const audit = await t.gql(
      AuditLogFilteredDocument,
      { resourceId: other.id, action: 'booking.cancellation_fee' },
      desk,
    );
    expect(audit.data!.auditLog.items).toEqual([]);
  });

  it('refuses a translator and an unknown booking', async () => {
    const translator = await createStaffToken(t, StaffRole.TRANSLATOR);
    const { id } = await paidBooking();
    const refused = await t.gql(StaffCancelWithPolicyDocument, { id, reason: 'x' }, translator);
    expect(refused.errors![0].extensions!.code).toBe('FORBIDDEN');
    const unknown = await cancel('00000000-0000-4000-8000-000000000000');
    expect(unknown.errors![0].extensions!.code).toBe('NOT_FOUND');
    expect((await get(id)).status).toBe('confirmed');
  });
});

describe('the deadlines the client reads, and the fee the desk sees before a cancel (D32)', () => {
  const deadlinesOf = async (id: string) => ({
    rest: (await get(id)).cancellation_deadlines,
    gql: (await t.gql(BookingDeadlinesDocument, { id }, alice.key)).data!.interpretationBooking!.cancellationDeadlines,
  });
  const feeNow = async (id: string) => {
    const res = await t.gql(StaffBookingFeeNowDocument, { id }, desk);
    expect(res.errors).toBeUndefined();
    return res.data!.staffInterpretationBooking!.cancellationFeeNow;
  };

  it('shows the deadlines in UTC on both doors once paid, and the terms in the offset booked in; none before or after', async () => {
    const start = '2031-03-04T09:30:00-05:00';
    const requested = await requestBooking(t, alice.key, { scheduled_at: start });
    expect(await deadlinesOf(requested.id)).toEqual({ rest: null, gql: null });

    const { id } = await paidBooking({ scheduled_at: start });
    const terms =
      'Cancellation once paid: refunded in full by 2031-03-02 09:30 UTC-05:00 (2031-03-02 14:30 UTC); ' +
      '50% refunded by 2031-03-03 09:30 UTC-05:00 (2031-03-03 14:30 UTC); nothing refunded after that.';
    const paid = await deadlinesOf(id);
    expect(paid.rest).toEqual({
      full_refund_until: '2031-03-02T14:30:00.000000Z',
      half_refund_until: '2031-03-03T14:30:00.000000Z',
      terms,
    });
    expect(paid.gql).toEqual({
      fullRefundUntil: '2031-03-02T14:30:00.000000Z',
      halfRefundUntil: '2031-03-03T14:30:00.000000Z',
      terms,
    });
    // The same terms the confirmation e-mail carried: one rule, one way of writing it.
    const mail = (await mailTo(alice.email)).find(
      (m) => m.kind === 'booking_awaiting_payment' && m.text?.includes(terms),
    );
    expect(mail).toBeDefined();

    // Held from confirmed, it is still paid: a staff cancel still keeps the fee.
    expect(
      (await t.gql(HoldInterpretationBookingDocument, { id, reason: 'Awaiting the docket.' }, desk)).errors,
    ).toBeUndefined();
    expect((await deadlinesOf(id)).rest).toEqual(paid.rest);
    expect((await cancel(id)).errors).toBeUndefined();
    expect(await deadlinesOf(id)).toEqual({ rest: null, gql: null });
  });

  it('moves the deadlines with a reschedule, in its new offset, and drops them once the booking is completed', async () => {
    const { id } = await paidBooking({ scheduled_at: '2031-03-11T09:30:00Z' });
    expect((await deadlinesOf(id)).rest.half_refund_until).toBe('2031-03-10T09:30:00.000000Z');
    const moved = await t.gql(
      RescheduleInterpretationBookingDocument,
      { id, scheduledAt: '2031-03-12T10:00:00+01:00' },
      desk,
    );
    expect(moved.errors).toBeUndefined();
    const after = await deadlinesOf(id);
    expect(after.rest).toMatchObject({
      full_refund_until: '2031-03-10T09:00:00.000000Z',
      half_refund_until: '2031-03-11T09:00:00.000000Z',
    });
    expect(after.gql!.terms).toContain('refunded in full by 2031-03-10 10:00 UTC+01:00 (2031-03-10 09:00 UTC)');
    await passStart(t, id);
    expect((await complete(id)).errors).toBeUndefined();
    expect(await deadlinesOf(id)).toEqual({ rest: null, gql: null });
  });

  it.each([
    ['48 h 0 min', 48, { feeCents: 0, refundCents: 17000, refundPercent: 100 }],
    ['47 h 59 min', 47 + 59 / 60, { feeCents: 8500, refundCents: 8500, refundPercent: 50 }],
    ['24 h 0 min', 24, { feeCents: 8500, refundCents: 8500, refundPercent: 50 }],
    ['23 h 59 min', 23 + 59 / 60, { feeCents: 17000, refundCents: 0, refundPercent: 0 }],
  ])(
    'tells the desk the fee of a cancel %s before the start, and the cancel keeps exactly that',
    async (_, hours, fee) => {
      const { id } = await paidBooking();
      const { shown, cancelled } = await withStartIn(id, hours, async () => ({
        shown: await feeNow(id),
        cancelled: await cancel(id),
      }));
      expect(shown).toEqual({ ...fee, hoursBeforeStart: hours });
      expect(cancelled.errors).toBeUndefined();
      const audit = await t.gql(AuditLogFilteredDocument, { resourceId: id, action: 'booking.cancellation_fee' }, desk);
      expect(audit.data!.auditLog.items[0].details).toMatchObject({
        fee_cents: fee.feeCents,
        refund_cents: fee.refundCents,
      });
      expect(await feeNow(id)).toBeNull();
    },
  );

  it('says nothing is kept of an unpaid booking, and is the desk’s alone', async () => {
    const requested = await requestBooking(t, alice.key);
    expect(await feeNow(requested.id)).toBeNull();
    const { id } = await paidBooking();
    const client = await t.gql(ClientBookingFeeNowDocument, { id }, alice.key);
    expect(client.errors![0].extensions!.code).toBe('FORBIDDEN');
    const translator = await createStaffToken(t, StaffRole.TRANSLATOR);
    const refused = await t.gql(StaffBookingFeeNowDocument, { id }, translator);
    expect(refused.errors![0].extensions!.code).toBe('FORBIDDEN');
  });
});

const complete = (id: string, actualHours?: number, token = desk) =>
  t.gql(CompleteWithHoursDocument, { id, actualHours }, token);

describe('actual time and overtime (D32)', () => {
  it('charges the time past the billed hours, rounded up to the half hour, by a checkout of its own', async () => {
    const { id, number } = await paidBooking();
    await passStart(t, id);
    const done = await complete(id, 2.1);
    expect(done.errors).toBeUndefined();
    const overtime = { hours: 0.5, amount_cents: 4250, paid_at: null };
    const rest = await get(id);
    expect(rest).toMatchObject({ status: 'completed', payment: { overtime } });
    expect(rest.payment.paid_at).not.toBeNull();
    const link = rest.payment.overtime.approval_url as string;
    expect(link).toMatch(/^https:\/\/www.sandbox.paypal.com\/checkoutnow\?token=/);
    const gql = await t.gql(BookingInterpreterDocument, { id }, alice.key);
    expect(gql.data!.interpretationBooking!.payment.overtime).toEqual({
      hours: 0.5,
      amountCents: 4250,
      approvalUrl: link,
      paidAt: null,
    });
    const mail = (await mailTo(alice.email)).find((m) => m.kind === 'booking_overtime' && m.text?.includes(number))!;
    expect(mail.text).toContain('took 2.1 hours, 0.5 more than were billed');
    expect(mail.text).toContain(link);

    const overtimeOrder = new URL(link).searchParams.get('token')!;
    await payAtPayPal(overtimeOrder);
    const paid = await get(id);
    expect(paid.status).toBe('completed');
    expect(paid.payment.overtime.paid_at).toMatch(/Z$/);
    expect(paid.payment.overtime.amount_cents).toBe(4250);
    const receipt = (await mailTo(alice.email)).find(
      (m) => m.kind === 'payment_receipt' && m.text?.includes(`Overtime of booking ${number}`),
    );
    expect(receipt).toBeDefined();
    // The capture is PayPal's of that checkout, for the overtime's amount.
    expect(paypal.calls).toContain(`POST /v2/checkout/orders/${overtimeOrder}/capture`);
  });

  it('charges nothing when the session took no longer than billed, and records the hours', async () => {
    const { id } = await paidBooking();
    await passStart(t, id);
    expect((await complete(id, 2)).errors).toBeUndefined();
    expect((await get(id)).payment.overtime).toBeNull();
    const audit = await t.gql(AuditLogFilteredDocument, { resourceId: id, action: 'booking.actual_hours' }, desk);
    expect(audit.data!.auditLog.items[0].details).toMatchObject({ actual_hours: 2, overtime_cents: 0 });
  });

  it('refuses negative, zero, absurd and malformed hours, a translator and an early completion, changing nothing', async () => {
    const { id } = await paidBooking();
    for (const hours of [-1, 0, 24.01, 1.234]) {
      const res = await complete(id, hours);
      expect(Object.keys(res.errors![0].extensions!.errors!)).toEqual(['actualHours']);
    }
    const early = await complete(id, 3);
    expect(early.errors![0].extensions!.errors).toHaveProperty('scheduledAt');
    await passStart(t, id);
    const translator = await createStaffToken(t, StaffRole.TRANSLATOR);
    expect((await complete(id, 3, translator)).errors![0].extensions!.code).toBe('FORBIDDEN');
    expect(await get(id)).toMatchObject({ status: 'confirmed', payment: { overtime: null } });
    expect((await complete('00000000-0000-4000-8000-000000000000', 3)).errors![0].extensions!.code).toBe('NOT_FOUND');
  });
});
