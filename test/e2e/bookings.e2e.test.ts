import {
  AuditLogDocument,
  CancelInterpretationBookingDocument,
  CompleteInterpretationBookingDocument,
  ConfirmInterpretationAvailabilityDocument,
  CreateInterpretationBookingDocument,
  HoldInterpretationBookingDocument,
  InterpretationBookingDocument,
  ReleaseInterpretationBookingDocument,
  SentEmailsDocument,
  StaffCancelInterpretationBookingDocument,
  StaffInterpretationBookingsDocument,
} from '../graphql/generated';
import { passStart } from '../helpers/bookings';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { StatementLog } from '../helpers/statement-log';

let t: TestApp;
let staff: string;
let alice: TestAccount;
let bob: TestAccount;
const statements = new StatementLog();
beforeAll(async () => {
  t = await startTestApp({ onQuery: statements.record });
  staff = await createStaffToken(t);
  [alice, bob] = [await createApprovedAccount(t, staff), await createApprovedAccount(t, staff)];
});
afterAll(() => t.close());

const FUTURE = '2030-12-01T09:30:00-05:00';
const base = {
  source_language: 'es',
  target_language: 'en',
  mode: 'video_remote',
  scheduled_at: FUTURE,
  duration_hours: 3,
};
const book = (body: object, key = alice.key) => t.rest.post('/api/v1/interpretation-bookings', body, key);
const get = async (id: string) =>
  (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data;
const cancel = (id: string, key = alice.key) =>
  t.rest.post(`/api/v1/interpretation-bookings/${id}/cancel`, undefined, key);
const confirm = (id: string) =>
  t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'María López' }, staff);
const pay = (approvalUrl: string) =>
  t.rest
    .raw()
    .post(`${approvalUrl.replace(t.config.appUrl, '')}/pay`)
    .type('form')
    .send({});

describe('pricing (D7, D12) to the cent', () => {
  const rates: Record<string, number> = {
    on_site: 12500,
    video_remote: 8500,
    sight_translation: 9500,
    asl: 11000,
    ai_conference: 3500,
  };
  const cases = Object.entries(rates).flatMap(([mode, rate]) =>
    [
      [0.5, 2],
      [2, 2],
      [2.25, 2.25],
      [7.5, 7.5],
    ].map(([hours, billable]) => [mode, hours, billable, rate, Math.round(billable * rate)] as const),
  );
  it.each(cases)('%s for %s h bills %s h at %s = %s cents', async (mode, hours, billable, rate, total) => {
    const res = await book({
      ...base,
      mode,
      duration_hours: hours,
      location: mode === 'on_site' ? '100 Court St, Room 4' : undefined,
    }).expect(201);
    expect(res.body.data).toMatchObject({
      status: 'requested',
      mode,
      duration_hours: hours,
      billable_hours: billable,
      unit_price_cents: rate,
      total_cents: total,
      currency: 'USD',
    });
  });

  it('keeps its price when the rate card changes', async () => {
    const before = (await book(base).expect(201)).body.data;
    await t.orm.em
      .fork()
      .getConnection()
      .execute(`UPDATE interpretation_rates SET unit_price_cents = 9999 WHERE mode = 'video_remote'`);
    try {
      expect((await get(before.id)).total_cents).toBe(25500);
      expect((await book(base).expect(201)).body.data.total_cents).toBe(29997);
    } finally {
      await t.orm.em
        .fork()
        .getConnection()
        .execute(`UPDATE interpretation_rates SET unit_price_cents = 8500 WHERE mode = 'video_remote'`);
    }
  });
});

describe('creation', () => {
  it('normalises scheduled_at to UTC, defaults the setting, echoes the request, and has no payment link yet', async () => {
    const res = await book({
      ...base,
      scheduled_at: '2026-12-01T09:30:00-05:00',
      video_platform_notes: 'Zoom link follows',
      reference: 'Depo 12',
    }).expect(201);
    expect(res.body.data).toMatchObject({
      number: expect.stringMatching(/^LT-INT-\d{4}-[A-Z0-9]{6}$/),
      scheduled_at: '2026-12-01T14:30:00.000000Z',
      setting: 'other',
      source_language: 'es',
      target_language: 'en',
      location: null,
      video_platform_notes: 'Zoom link follows',
      reference: 'Depo 12',
      payment: { provider: 'sandbox', provider_order_id: null, approval_url: null, paid_at: null, refunded_at: null },
    });
  });

  it.each([
    [
      'a time in the past',
      { scheduled_at: '2020-01-01T10:00:00Z' },
      { scheduled_at: ['The scheduled at field must be a date in the future.'] },
    ],
    [
      'a time without an offset',
      { scheduled_at: '2030-12-01T09:30:00' },
      { scheduled_at: ['The scheduled at field must be an ISO 8601 date and time with an explicit offset.'] },
    ],
    [
      // Written in 9999, it falls in 10000 in UTC: refused, never a 500 from the database (D25).
      'a time past the four-digit years in UTC',
      { scheduled_at: '9999-12-31T23:30:00-12:00' },
      { scheduled_at: ['The scheduled at field must fall between the years 0001 and 9999 in UTC.'] },
    ],
    [
      // A mistyped year takes the money now for a session no one will attend (D28).
      'a time more than 5 years ahead',
      { scheduled_at: '2206-03-04T09:00:00-05:00' },
      { scheduled_at: ['The scheduled at field must be within 5 years from now.'] },
    ],
    ['no location on site', { mode: 'on_site' }, { location: ['The location field is required.'] }],
    [
      'an unknown mode and setting',
      { mode: 'telepathy', setting: 'party' },
      { mode: ['The selected mode is invalid.'], setting: ['The selected setting is invalid.'] },
    ],
    [
      'the same languages',
      { target_language: 'ES' },
      { target_language: ['The target language must be different from the source language.'] },
    ],
    [
      'duration 0',
      { duration_hours: 0 },
      { duration_hours: ['The duration hours field must be greater than 0 and at most 12.'] },
    ],
    [
      'duration 13',
      { duration_hours: 13 },
      { duration_hours: ['The duration hours field must be greater than 0 and at most 12.'] },
    ],
    [
      'three decimals',
      { duration_hours: 2.125 },
      { duration_hours: ['The duration hours field must have at most 2 decimal places.'] },
    ],
    [
      'long texts',
      { location: 'l'.repeat(501), video_platform_notes: 'n'.repeat(2001), reference: 'r'.repeat(256) },
      {
        location: ['The location field must not be greater than 500 characters.'],
        video_platform_notes: ['The video platform notes field must not be greater than 2000 characters.'],
        reference: ['The reference field must not be greater than 255 characters.'],
      },
    ],
    [
      'nothing at all',
      null,
      {
        source_language: ['The source language field is required.'],
        target_language: ['The target language field is required.'],
        mode: ['The mode field is required.'],
        scheduled_at: ['The scheduled at field is required.'],
        duration_hours: ['The duration hours field is required.'],
      },
    ],
  ])('refuses %s', async (_label, overrides, errors) => {
    const res = await book(overrides === null ? {} : { ...base, ...overrides }).expect(422);
    expect(res.body.errors).toEqual(errors);
  });
});

describe('the flow: request, staff confirm, pay, complete (the Booking statuses)', () => {
  it('runs over REST and GraphQL with the sandbox checkout', async () => {
    const created = await t.gql(
      CreateInterpretationBookingDocument,
      {
        input: {
          sourceLanguage: 'fr',
          targetLanguage: 'en',
          mode: 'ON_SITE',
          setting: 'DEPOSITION',
          scheduledAt: FUTURE,
          durationHours: 4,
          location: '1 Main St',
        },
      },
      alice.key,
    );
    expect(created.errors).toBeUndefined();
    const id = created.data!.createInterpretationBooking.id;
    expect(created.data!.createInterpretationBooking).toMatchObject({
      status: 'REQUESTED',
      setting: 'DEPOSITION',
      totalCents: 50000,
      payment: { provider: 'sandbox', approvalUrl: null },
    });

    const confirmed = await confirm(id);
    expect(confirmed.data!.confirmInterpretationAvailability).toMatchObject({
      status: 'AWAITING_PAYMENT',
      interpreterName: 'María López',
    });
    const awaiting = await get(id);
    expect(awaiting.payment).toMatchObject({
      provider_order_id: expect.stringMatching(/^SBX-/),
      approval_url: expect.stringContaining('/api/v1/sandbox/checkout/'),
      paid_at: null,
    });
    const mail = await t.gql(SentEmailsDocument, { to: alice.email }, staff);
    expect(mail.data!.sentEmails.items[0]).toMatchObject({ kind: 'booking_awaiting_payment' });
    expect(mail.data!.sentEmails.items[0].text).toContain(awaiting.payment.approval_url);

    expect((await pay(awaiting.payment.approval_url)).status).toBe(200);
    const paid = await get(id);
    expect(paid).toMatchObject({ status: 'confirmed', payment: { paid_at: expect.stringMatching(/Z$/) } });
    await expect(
      cancel(id)
        .expect(422)
        .then((r) => r.body.errors),
    ).resolves.toEqual({ status: ['Cannot cancel the booking while the status is confirmed.'] });

    const early = await t.gql(CompleteInterpretationBookingDocument, { id }, staff);
    expect(early.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { scheduledAt: [expect.stringMatching(/^The booking cannot be completed before its start \(/)] },
    });
    await passStart(t, id);
    const done = await t.gql(CompleteInterpretationBookingDocument, { id }, staff);
    expect(done.data!.completeInterpretationBooking.status).toBe('COMPLETED');
    const audit = await t.gql(AuditLogDocument, { resourceId: id }, staff);
    expect(audit.data!.auditLog.items.map((e) => e.action)).toEqual([
      'booking.complete',
      'booking.paid',
      'booking.confirm_availability',
    ]);
  });

  it('refuses moves the table does not allow', async () => {
    const id = (await book(base).expect(201)).body.data.id;
    const early = await t.gql(CompleteInterpretationBookingDocument, { id }, staff);
    expect(early.errors![0].extensions!.errors).toEqual({
      status: ['Cannot complete the booking while the status is requested.'],
    });
    await confirm(id);
    const twice = await confirm(id);
    expect(twice.errors![0].extensions!.errors).toEqual({
      status: ['Cannot confirm availability while the status is awaiting_payment.'],
    });
    const noName = await t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: '' }, staff);
    expect(noName.errors![0].extensions!.errors).toEqual({
      interpreterName: ['The interpreter name field is required.'],
    });
  });
});

describe('cancelling and holds', () => {
  it('lets the client cancel while requested and while awaiting payment (voiding the checkout)', async () => {
    const requested = (await book(base).expect(201)).body.data.id;
    expect((await cancel(requested).expect(200)).body.data).toMatchObject({
      status: 'cancelled',
      cancelled_at: expect.stringMatching(/Z$/),
    });

    const awaiting = (await book(base).expect(201)).body.data.id;
    await confirm(awaiting);
    const url = (await get(awaiting)).payment.approval_url;
    const viaGraphQL = await t.gql(CancelInterpretationBookingDocument, { id: awaiting }, alice.key);
    expect(viaGraphQL.data!.cancelInterpretationBooking.status).toBe('CANCELLED');
    expect((await pay(url)).status).toBe(409);
    expect((await cancel(awaiting).expect(422)).body.errors).toEqual({
      status: ['Cannot cancel the booking while the status is cancelled.'],
    });
  });

  it('holds with an e-mail, releases to where it was, and refunds a paid booking on staff cancel', async () => {
    const id = (await book(base).expect(201)).body.data.id;
    await confirm(id);
    const held = await t.gql(
      HoldInterpretationBookingDocument,
      { id, reason: 'No interpreter for the new time' },
      staff,
    );
    expect(held.data!.holdInterpretationBooking).toMatchObject({
      status: 'ON_HOLD',
      holdReason: 'No interpreter for the new time',
    });
    const mail = await t.gql(SentEmailsDocument, { to: alice.email }, staff);
    expect(mail.data!.sentEmails.items[0]).toMatchObject({ kind: 'on_hold' });
    const released = await t.gql(ReleaseInterpretationBookingDocument, { id }, staff);
    expect(released.data!.releaseInterpretationBooking.status).toBe('AWAITING_PAYMENT');

    await pay((await get(id)).payment.approval_url);
    const cancelled = await t.gql(StaffCancelInterpretationBookingDocument, { id, reason: 'Court adjourned' }, staff);
    expect(cancelled.data!.staffCancelInterpretationBooking).toMatchObject({
      status: 'CANCELLED',
      payment: { refundedAt: expect.stringMatching(/Z$/) },
    });
  });
});

describe('lists and ownership', () => {
  it("lists newest first with a status filter, staff soonest first, and hides other accounts' bookings", async () => {
    const mine = (await book({ ...base, reference: 'mine' }).expect(201)).body.data.id;
    const list = await t.rest.get('/api/v1/interpretation-bookings?status=requested&per_page=5', alice.key).expect(200);
    expect(list.body.data[0].id).toBe(mine);
    expect(list.body.data.every((b: { status: string }) => b.status === 'requested')).toBe(true);
    expect(
      (await t.rest.get('/api/v1/interpretation-bookings?status=maybe', alice.key).expect(422)).body.errors,
    ).toEqual({ status: ['The selected status is invalid.'] });
    await t.rest.get(`/api/v1/interpretation-bookings/${mine}`, bob.key).expect(404);
    await cancel(mine, bob.key).expect(404);
    expect((await t.gql(InterpretationBookingDocument, { id: mine }, bob.key)).errors![0].extensions!.code).toBe(
      'NOT_FOUND',
    );
    const staffList = await t.gql(StaffInterpretationBookingsDocument, {}, staff);
    const times = staffList.data!.staffInterpretationBookings.items.map((b) => Date.parse(b.scheduledAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});

describe('polling', () => {
  const count = async (path: string) => statements.of(await t.rest.get(path, alice.key).expect(200)).length;

  it('answers GET /interpretation-bookings/{id} and a page of bookings in a constant number of queries', async () => {
    const requested = (await book(base).expect(201)).body.data.id;
    const paid = (await book(base).expect(201)).body.data.id;
    await confirm(paid);
    await pay((await get(paid)).payment.approval_url);
    expect((await get(paid)).status).toBe('confirmed');

    const forRequested = await count(`/api/v1/interpretation-bookings/${requested}`);
    expect(await count(`/api/v1/interpretation-bookings/${paid}`)).toBe(forRequested);
    // The key's look-up reads the booking with its payment (joined); the rate limit counts in memory (D24).
    expect(forRequested).toBe(1);
    const page2 = await count('/api/v1/interpretation-bookings?per_page=2');
    expect(await count('/api/v1/interpretation-bookings?per_page=20')).toBe(page2);
  });
});
