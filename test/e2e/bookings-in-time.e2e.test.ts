import {
  AuditLogDocument,
  CompleteInterpretationBookingDocument,
  ConfirmInterpretationAvailabilityDocument,
  CreateInterpretationBookingDocument,
  HoldInterpretationBookingDocument,
  RenewCheckoutDocument,
  RescheduleInterpretationBookingDocument,
  SentEmailsDocument,
  StaffCancelInterpretationBookingDocument,
} from '../graphql/generated';
import { passStart, requestBooking } from '../helpers/bookings';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** D29: a booking whose start has passed is neither confirmed, paid nor completed early; unpaid, it is cancelled. */
let t: TestApp;
let staff: string;
let alice: TestAccount;
beforeAll(async () => {
  // The expiry sweep is run by the tests themselves, at the moments they choose.
  t = await startTestApp({ workers: false });
  staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
});
afterAll(() => t.close());

const soon = () => new Date(Date.now() + 24 * 3600_000).toISOString();
const book = async (scheduledAt = soon()) => (await requestBooking(t, alice.key, { scheduled_at: scheduledAt })).id;
const confirm = (id: string) =>
  t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'Ana Ruiz' }, staff);
const awaiting = async (scheduledAt?: string) => {
  const id = await book(scheduledAt);
  expect((await confirm(id)).errors).toBeUndefined();
  return { id, approvalUrl: (await get(id)).payment.approval_url as string };
};
const get = async (id: string) =>
  (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data;
const page = (approvalUrl: string) => t.rest.raw().get(approvalUrl.replace(t.config.appUrl, ''));
const pay = (approvalUrl: string) =>
  t.rest
    .raw()
    .post(`${approvalUrl.replace(t.config.appUrl, '')}/pay`)
    .type('form')
    .send({});
const mailTo = async (email: string) =>
  (await t.gql(SentEmailsDocument, { to: email, perPage: 100 }, staff)).data!.sentEmails.items;
const paymentRow = async (bookingId: string) =>
  (
    await t.orm.em
      .fork()
      .getConnection()
      .execute(
        `SELECT p.status, p.captured_cents, p.refunded_cents FROM payments p JOIN interpretation_bookings b ON b.payment_id = p.id WHERE b.id = ?`,
        [bookingId],
      )
  )[0] as { status: string; captured_cents: number; refunded_cents: number };
const sweep = (now?: Date) => t.services.bookings.expireStarted(t.orm.em.fork(), now);

describe('times as the client wrote them, and languages by name (D29)', () => {
  it('keeps the offset given on REST and shows it with UTC in the e-mail and on the checkout page', async () => {
    const { id, approvalUrl } = await awaiting('2031-03-04T09:30:00-05:00');
    expect((await get(id)).scheduled_at).toBe('2031-03-04T14:30:00.000000Z');
    const number = (await get(id)).number as string;
    const sent = (await mailTo(alice.email)).find(
      (m) => m.kind === 'booking_awaiting_payment' && m.text?.includes(number),
    )!;
    expect(sent.text).toContain(
      `booking ${number} (Spanish to English) on 2031-03-04 09:30 UTC-05:00 (2031-03-04 14:30 UTC).`,
    );
    const html = (await page(approvalUrl).expect(200)).text;
    expect(html).toContain('Spanish to English, 2031-03-04 09:30 UTC-05:00 (2031-03-04 14:30 UTC)');
    expect(html).not.toContain('es to en');
  });

  it('keeps the offset given on GraphQL too, and shows a UTC time once', async () => {
    const created = await t.gql(
      CreateInterpretationBookingDocument,
      {
        input: {
          sourceLanguage: 'de',
          targetLanguage: 'fr',
          mode: 'VIDEO_REMOTE',
          scheduledAt: '2031-05-06T18:15:00+05:45',
          durationHours: 2,
        },
      },
      alice.key,
    );
    expect(created.errors).toBeUndefined();
    const id = created.data!.createInterpretationBooking.id;
    await confirm(id);
    const text = (await mailTo(alice.email)).find(
      (m) => m.kind === 'booking_awaiting_payment' && m.text?.includes('German to French'),
    )!.text;
    expect(text).toContain('on 2031-05-06 18:15 UTC+05:45 (2031-05-06 12:30 UTC)');

    const utc = await awaiting('2031-07-08T10:00:00Z');
    expect((await page(utc.approvalUrl).expect(200)).text).toContain('Spanish to English, 2031-07-08 10:00 UTC, 2 h');
  });

  it('shows the cancellation deadlines as moments in the client offset with UTC: e-mails, checkout page, receipt (D32)', async () => {
    const { id, approvalUrl } = await awaiting('2031-03-04T09:30:00-05:00');
    const { number } = await get(id);
    const terms =
      'Cancellation once paid: refunded in full by 2031-03-02 09:30 UTC-05:00 (2031-03-02 14:30 UTC); ' +
      '50% refunded by 2031-03-03 09:30 UTC-05:00 (2031-03-03 14:30 UTC); nothing refunded after that.';
    const mailOf = async (kind: string) =>
      (await mailTo(alice.email)).find((m) => m.kind === kind && m.text?.includes(number))!.text!;
    expect(await mailOf('booking_awaiting_payment')).toContain(terms);
    const html = (await page(approvalUrl).expect(200)).text;
    expect(html).toContain(`<p class="note">${terms}</p>`);
    expect(html).not.toMatch(/hours? before the start/);

    await pay(approvalUrl).expect(200);
    expect((await get(id)).status).toBe('confirmed');
    expect(await mailOf('payment_receipt')).toContain(terms);

    // Moved by staff to a time written in another offset: the deadlines move with it, in the new offset.
    const moved = await t.gql(
      RescheduleInterpretationBookingDocument,
      { id, scheduledAt: '2031-03-10T08:00:00+05:30' },
      staff,
    );
    expect(moved.errors).toBeUndefined();
    expect(await mailOf('booking_rescheduled')).toContain(
      'Cancellation once paid: refunded in full by 2031-03-08 08:00 UTC+05:30 (2031-03-08 02:30 UTC); ' +
        '50% refunded by 2031-03-09 08:00 UTC+05:30 (2031-03-09 02:30 UTC); nothing refunded after that.',
    );
    // The same start again, in any offset, changes nothing the client should be e-mailed about: refused.
    for (const same of ['2031-03-10T08:00:00+05:30', '2031-03-10T02:30:00Z']) {
      const again = await t.gql(RescheduleInterpretationBookingDocument, { id, scheduledAt: same }, staff);
      expect(again.errors![0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        errors: { scheduledAt: ['The booking already starts then: choose another start.'] },
      });
    }
    const rescheduledMails = (await mailTo(alice.email)).filter(
      (m) => m.kind === 'booking_rescheduled' && m.text?.includes(number),
    );
    expect(rescheduledMails).toHaveLength(1);
    // A hold and a staff cancel name the start too.
    const start = '2031-03-10 08:00 UTC+05:30 (2031-03-10 02:30 UTC)';
    const held = await t.gql(HoldInterpretationBookingDocument, { id, reason: 'The court may adjourn.' }, staff);
    expect(held.errors).toBeUndefined();
    expect(await mailOf('on_hold')).toContain(`It starts at ${start}.`);
    const cancelled = await t.gql(StaffCancelInterpretationBookingDocument, { id, reason: 'Adjourned.' }, staff);
    expect(cancelled.errors).toBeUndefined();
    expect(await mailOf('cancelled_by_staff')).toContain(`It was to start at ${start}.`);
  });
});

describe('a booking whose start has passed (D29)', () => {
  it('cannot be paid: the checkout page says so, Pay is refused and nothing is captured', async () => {
    const { id, approvalUrl } = await awaiting();
    await passStart(t, id);
    const html = (await page(approvalUrl).expect(200)).text;
    expect(html).toMatch(/The booking&#39;s start \(.+\) has passed: it can no longer be paid\./);
    expect(html).not.toContain('action="');
    const refused = await pay(approvalUrl).expect(409);
    expect(refused.text).toMatch(/has passed: it can no longer be paid\./);
    expect(await get(id)).toMatchObject({ status: 'awaiting_payment', payment: { paid_at: null } });
    expect(await paymentRow(id)).toEqual({ status: 'created', captured_cents: 0, refunded_cents: 0 });
  });

  it('cannot be confirmed by staff, nor get a new checkout, on either door', async () => {
    const requested = await book();
    await passStart(t, requested);
    const confirmed = await confirm(requested);
    expect(confirmed.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { scheduledAt: [expect.stringMatching(/has passed: it can no longer be confirmed\.$/)] },
    });
    expect((await get(requested)).status).toBe('requested');

    const { id } = await awaiting();
    const before = (await get(id)).payment;
    await passStart(t, id);
    const rest = await t.rest.post(`/api/v1/interpretation-bookings/${id}/checkout`, undefined, alice.key).expect(422);
    expect(rest.body).toEqual({
      message: expect.stringMatching(/has passed: it can no longer be paid\.$/),
      errors: { scheduled_at: [rest.body.message] },
    });
    const gql = await t.gql(RenewCheckoutDocument, { bookingId: id }, alice.key);
    expect(gql.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { scheduledAt: [rest.body.message] },
    });
    expect((await get(id)).payment).toEqual(before);
  });

  it('is completed only after its start (completeInterpretationBooking)', async () => {
    const { id, approvalUrl } = await awaiting();
    await pay(approvalUrl).expect(200);
    const early = await t.gql(CompleteInterpretationBookingDocument, { id }, staff);
    expect(early.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: {
        scheduledAt: [expect.stringMatching(/^The booking cannot be completed before its start \(.+ UTC\)\.$/)],
      },
    });
    expect((await get(id)).status).toBe('confirmed');
    await passStart(t, id);
    expect(
      (await t.gql(CompleteInterpretationBookingDocument, { id }, staff)).data!.completeInterpretationBooking.status,
    ).toBe('COMPLETED');
  });
});

describe('the expiry sweep (D29)', () => {
  it('cancels unpaid bookings whose start passed, e-mails each account once, and leaves the rest alone', async () => {
    const requested = await book();
    const unpaid = await awaiting();
    const held = await awaiting();
    await t.gql(HoldInterpretationBookingDocument, { id: held.id, reason: 'Checking the venue' }, staff);
    const paid = await awaiting();
    await pay(paid.approvalUrl).expect(200);
    const future = await awaiting();
    for (const id of [requested, unpaid.id, held.id, paid.id]) await passStart(t, id);

    // Several processes sweep at once: each booking is cancelled once.
    await Promise.all([sweep(), sweep(), sweep()]);
    for (const id of [requested, unpaid.id, held.id])
      expect(await get(id)).toMatchObject({ status: 'cancelled', cancelled_at: expect.stringMatching(/Z$/) });
    expect((await get(paid.id)).status).toBe('confirmed');
    expect((await get(future.id)).status).toBe('awaiting_payment');
    expect((await paymentRow(unpaid.id)).status).toBe('voided');
    expect((await pay(unpaid.approvalUrl)).status).toBe(409);

    const numbers = await Promise.all(
      [requested, unpaid.id, held.id].map(async (id) => (await get(id)).number as string),
    );
    const expired = (await mailTo(alice.email)).filter((m) => m.kind === 'booking_expired');
    for (const number of numbers) {
      const mails = expired.filter((m) => m.subject.includes(number));
      expect(mails).toHaveLength(1);
      expect(mails[0].text).toMatch(
        /\(Spanish to English\) on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: its start passed before it was paid/,
      );
    }
    const audit = await t.gql(AuditLogDocument, { resourceId: unpaid.id }, staff);
    expect(audit.data!.auditLog.items.filter((entry) => entry.action === 'booking.expire')).toHaveLength(1);
    expect(await sweep()).toBe(0);
  });

  it(`races a payment: one winner, and the money adds up (captured = kept + refunded), ${10} rounds`, async () => {
    for (let round = 0; round < 10; round++) {
      const { id, approvalUrl } = await awaiting();
      // The sweep believes the start has passed while the payer still sees a future booking: they meet on the locks.
      const [paid] = await Promise.all([pay(approvalUrl), sweep(new Date(Date.now() + 48 * 3600_000))]);
      const booking = await get(id);
      const payment = await paymentRow(id);
      if (paid.status === 200) {
        expect({ round, status: booking.status, payment }).toEqual({
          round,
          status: 'confirmed',
          payment: { status: 'captured', captured_cents: booking.total_cents, refunded_cents: 0 },
        });
      } else {
        expect({ round, code: paid.status, status: booking.status, payment }).toEqual({
          round,
          code: 409,
          status: 'cancelled',
          payment: { status: 'voided', captured_cents: 0, refunded_cents: 0 },
        });
      }
    }
  });
});
