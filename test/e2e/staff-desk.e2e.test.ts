import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AddBookingNoteDocument,
  AddOrderNoteByIdDocument,
  ApproveTranslationByIdDocument,
  AssignInterpreterDocument,
  AssignOrderDocument,
  AuditLogFilteredDocument,
  ChangeStaffRoleDocument,
  CompleteAsTranslatorDocument,
  CompleteCertifiedOrderDocument,
  ConfirmInterpretationAvailabilityDocument,
  DeactivateStaffUserDocument,
  RescheduleInterpretationBookingDocument,
  SentEmailsDocument,
  StaffBookingDeskDocument,
  StaffCancelInterpretationBookingDocument,
  StaffCancelOrderDocument,
  StaffInterpretationBookingDocument,
  StaffMeDocument,
  StaffOrderAndMeDocument,
  StaffOrderDocument,
  StaffOrderSearchDocument,
  StaffUsersByRoleDocument,
  UpdateStaffProfileDocument,
} from '../graphql/generated';
import { createStaffMember } from '../helpers/certified';
import { docx } from '../helpers/documents';
import { createApprovedAccount, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { gqlRaw } from '../helpers/graphql-raw';
import { requestBooking } from '../helpers/bookings';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** D28 through GraphQL: roles, certification by the reviewer, the booking desk and what the client hears. */
type Staff = Awaited<ReturnType<typeof createStaffMember>>;
let t: TestApp;
let admin: Staff;
let desk: Staff;
let translator: Staff;
let alice: TestAccount;
const DAY = 86400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

beforeAll(async () => {
  t = await startTestApp();
  admin = await createStaffMember(t, {
    role: StaffRole.ADMIN,
    name: 'Ada Admin',
    credentials: 'Sworn translator no. 1',
  });
  desk = await createStaffMember(t, { role: StaffRole.DESK, name: 'Dora Desk' });
  translator = await createStaffMember(t, { role: StaffRole.TRANSLATOR, name: 'Tomás Translator' });
  alice = await createApprovedAccount(t, admin.token);
});
afterAll(() => t.close());

const code = (answer: { errors?: readonly { extensions?: Record<string, unknown> }[] }) =>
  answer.errors?.[0]?.extensions?.code;
const fieldErrors = (answer: { errors?: readonly { extensions?: Record<string, unknown> }[] }) =>
  answer.errors?.[0]?.extensions?.errors;
const audit = async (query: { actorId?: string; action?: string; from?: string; to?: string; resourceId?: string }) =>
  (await t.gql(AuditLogFilteredDocument, query, admin.token)).data!.auditLog.items;
const mails = async (kind: string) =>
  (await t.gql(SentEmailsDocument, { to: alice.email, perPage: 100 }, admin.token)).data!.sentEmails.items.filter(
    (mail) => mail.kind === kind,
  );

/** A certified order of one DOCX, in review: its id and its machine translation's id. */
async function certifiedInReview(): Promise<{ id: string; translationId: string }> {
  const source = (await uploadFile(t, alice.key, await docx({ paragraphs: ['Acta de nacimiento.'] }), 'acta.docx')).id;
  const id = await paidOrder(t, alice, [source], 'certified');
  await waitForStatus(t, alice, id, 'in_review');
  const view = (await t.gql(StaffOrderDocument, { id }, admin.token)).data!.staffOrder!;
  return { id, translationId: view.files.find((file) => file.type === 'TRANSLATION')!.id };
}

const requestedBooking = (scheduledAt = inDays(10)) =>
  requestBooking(t, alice.key, { scheduled_at: scheduledAt, reference: 'Depo Garcia' });

async function awaitingPayment(): Promise<{ id: string; payUrl: string }> {
  const { id } = await requestedBooking();
  const confirmed = await t.gql(
    ConfirmInterpretationAvailabilityDocument,
    { id, interpreterName: 'Ana Ruiz' },
    desk.token,
  );
  return {
    id,
    payUrl: confirmed.data!.confirmInterpretationAvailability.payment.approvalUrl!.replace(t.config.appUrl, ''),
  };
}
const pay = (payUrl: string) => t.rest.raw().post(`${payUrl}/pay`).type('form').send({}).expect(200);

describe('roles (D28)', () => {
  it('answers staffMe for every role, and filters staffUsers by role', async () => {
    for (const member of [admin, desk, translator]) {
      expect((await t.gql(StaffMeDocument, {}, member.token)).data!.staffMe).toMatchObject({
        id: member.id,
        name: member.name,
      });
    }
    const translators = (await t.gql(StaffUsersByRoleDocument, { role: 'TRANSLATOR' }, desk.token)).data!.staffUsers
      .items;
    expect(translators.map((user) => user.id)).toContain(translator.id);
    expect(new Set(translators.map((user) => user.role))).toEqual(new Set(['TRANSLATOR']));
  });

  it('refuses a desk member granting themselves admin, changes nothing and audits nothing', async () => {
    const grab = await t.gql(ChangeStaffRoleDocument, { id: desk.id, name: desk.name, role: 'ADMIN' }, desk.token);
    expect(code(grab)).toBe('FORBIDDEN');
    expect((await t.gql(StaffMeDocument, {}, desk.token)).data!.staffMe.role).toBe('DESK');
    expect(await audit({ resourceId: desk.id, action: 'staff_user.update_profile' })).toEqual([]);
    // Their own name stays theirs to change.
    expect(code(await t.gql(ChangeStaffRoleDocument, { id: desk.id, name: 'Dora Desk' }, desk.token))).toBeUndefined();
  });

  it('keeps an active admin: the last one is not demoted, and two admins deactivating each other leave one', async () => {
    const solo = await startTestApp({ workers: false });
    try {
      const first = await createStaffMember(solo, { role: StaffRole.ADMIN, name: 'First' });
      const demote = await solo.gql(
        ChangeStaffRoleDocument,
        { id: first.id, name: 'First', role: 'DESK' },
        first.token,
      );
      expect(fieldErrors(demote)).toEqual({
        role: ['The last active admin keeps the admin role: make another admin first.'],
      });
      for (let round = 0; round < 4; round++) {
        const a = await createStaffMember(solo, { role: StaffRole.ADMIN, name: `A${round}` });
        const b = await createStaffMember(solo, { role: StaffRole.ADMIN, name: `B${round}` });
        // Leave a and b as the only active admins.
        const others = (
          await solo.gql(StaffUsersByRoleDocument, { role: 'ADMIN' }, a.token)
        ).data!.staffUsers.items.filter((user) => ![a.id, b.id].includes(user.id));
        for (const other of others)
          await solo.orm.em
            .fork()
            .getConnection()
            .execute(`update staff_users set deactivated_at = now() where id = ?`, [other.id]);
        const answers = await Promise.all([
          solo.gql(DeactivateStaffUserDocument, { id: b.id }, a.token),
          solo.gql(DeactivateStaffUserDocument, { id: a.id }, b.token),
        ]);
        const won = answers.filter((answer) => !answer.errors);
        expect({ round, won: won.length }).toEqual({ round, won: 1 });
        // The loser is refused by the rule, or, when the winner's change committed before the loser's request was
        // authenticated, its token is no credential any more (D13): either way one admin stays.
        const lost = answers.find((answer) => answer.errors)!;
        expect([
          ['BAD_USER_INPUT', { id: ['The last active admin cannot be deactivated.'] }],
          ['UNAUTHENTICATED', undefined],
        ]).toContainEqual([code(lost), fieldErrors(lost)]);
        const active = await solo.orm.em
          .fork()
          .getConnection()
          .execute(`select count(*)::int as n from staff_users where deactivated_at is null and id in (?, ?)`, [
            a.id,
            b.id,
          ]);
        expect({ round, active: active[0].n }).toEqual({ round, active: 1 });
        const rows = await solo.orm.em
          .fork()
          .getConnection()
          .execute(
            `select count(*)::int as n from audit_entries where action = 'staff_user.deactivate' and resource_id in (?, ?)`,
            [a.id, b.id],
          );
        expect({ round, audited: rows[0].n }).toEqual({ round, audited: 1 });
      }
    } finally {
      await solo.close();
    }
  }, 60_000);

  it('lets a translator see and work on their own assignments only, and certify what they reviewed', async () => {
    const mine = await certifiedInReview();
    const theirs = await certifiedInReview();
    expect(
      code(await t.gql(AssignOrderDocument, { orderId: mine.id, staffUserId: translator.id }, desk.token)),
    ).toBeUndefined();

    const listed = (
      await t.gql(StaffOrderSearchDocument, { perPage: 100 }, translator.token)
    ).data!.staffOrders.items.map((order) => order.id);
    expect(listed).toEqual([mine.id]);
    // Someone else's order: null and NOT_FOUND, while the rest of the request answers.
    const other = await t.gql(StaffOrderAndMeDocument, { id: theirs.id }, translator.token);
    expect([other.data!.staffOrder, other.data!.staffMe.id, code(other)]).toEqual([null, translator.id, 'NOT_FOUND']);
    const refused = await t.gql(ApproveTranslationByIdDocument, { id: theirs.translationId }, translator.token);
    expect([code(refused), refused.errors![0].message]).toEqual(['FORBIDDEN', 'The order is not assigned to you.']);
    expect(await audit({ resourceId: theirs.id, action: 'order.approve_translation' })).toEqual([]);

    expect(
      code(await t.gql(ApproveTranslationByIdDocument, { id: mine.translationId }, translator.token)),
    ).toBeUndefined();
    // Certification is personal: no credentials on the profile, no certificate.
    const bare = await t.gql(CompleteAsTranslatorDocument, { orderId: mine.id }, translator.token);
    expect(fieldErrors(bare)).toEqual({
      credentials: ['Add your credentials to your staff profile: the certificate prints them under your name.'],
    });
    const profile = await t.gql(
      UpdateStaffProfileDocument,
      { id: translator.id, name: translator.name, credentials: 'Sworn translator no. 9' },
      translator.token,
    );
    expect(profile.errors).toBeUndefined();
    // Someone who reviewed nothing of it does not certify it, whatever their role.
    const byAdmin = await t.gql(CompleteCertifiedOrderDocument, { orderId: mine.id }, admin.token);
    expect(fieldErrors(byAdmin)).toEqual({
      reviewer: ['You certify what you complete: approve or replace at least one of its translations first.'],
    });
    // A completion that asks for the order's money is refused whole, before it runs; the same without it goes through.
    const pricey = await t.gql(CompleteCertifiedOrderDocument, { orderId: mine.id }, translator.token);
    expect([code(pricey), pricey.errors![0].message]).toEqual([
      'FORBIDDEN',
      'The translator role may not read Order.totalCents.',
    ]);
    const done = await t.gql(CompleteAsTranslatorDocument, { orderId: mine.id }, translator.token);
    expect(done.data!.completeCertifiedOrder.status).toBe('COMPLETED');
    const certificate = (await t.gql(StaffOrderDocument, { id: mine.id }, translator.token)).data!.staffOrder!
      .certificate!;
    expect(certificate.translator).toEqual({ name: 'Tomás Translator', credentials: 'Sworn translator no. 9' });
    const verified = (await t.rest.get(`/api/v1/certificates/${certificate.code}`).expect(200)).body.data;
    expect(verified.translator).toEqual({ name: 'Tomás Translator', credentials: 'Sworn translator no. 9' });
  }, 120_000);

  it('refuses an account key a costly staff list as FORBIDDEN, not QUERY_TOO_COMPLEX, and names the ids `id` (the old names still work)', async () => {
    const costly = `{ ${Array.from({ length: 12 }, (_, i) => `l${i}: staffOrders(perPage: 100) { items { id files { id } } }`).join(' ')} }`;
    expect((await gqlRaw(t.rest.raw(), costly, { token: admin.token })).errors![0].extensions.code).toBe(
      'QUERY_TOO_COMPLEX',
    );
    const asAccount = await gqlRaw(t.rest.raw(), costly, { token: alice.key });
    expect([asAccount.errors![0].extensions.code, asAccount.errors![0].message]).toEqual(['FORBIDDEN', 'Staff only.']);

    const { id } = await certifiedInReview();
    expect((await t.gql(AddOrderNoteByIdDocument, { id, text: 'By id' }, desk.token)).data!.addOrderNote.text).toBe(
      'By id',
    );
    expect(
      (await t.gql(AddOrderNoteByIdDocument, { orderId: id, text: 'By the old name' }, desk.token)).data!.addOrderNote
        .text,
    ).toBe('By the old name');
    const both = await t.gql(AddOrderNoteByIdDocument, { id, orderId: alice.id, text: 'x' }, desk.token);
    expect(fieldErrors(both)).toEqual({ id: ['Give the id once: id and orderId differ.'] });
    expect(fieldErrors(await t.gql(AddOrderNoteByIdDocument, { text: 'x' }, desk.token))).toEqual({
      id: ['The id field is required.'],
    });
  }, 60_000);
});

describe('the booking desk (D28)', () => {
  it('looks a booking up by id or number (null and NOT_FOUND when unknown) with its account, notes and interpreter', async () => {
    const booking = await requestedBooking();
    const byNumber = await t.gql(
      StaffInterpretationBookingDocument,
      { number: booking.number.toLowerCase() },
      desk.token,
    );
    expect(byNumber.data!.staffInterpretationBooking).toMatchObject({
      id: booking.id,
      account: { id: alice.id },
      notes: [],
    });
    const unknown = await t.gql(
      StaffInterpretationBookingDocument,
      { id: '00000000-0000-4000-8000-000000000000' },
      desk.token,
    );
    expect([unknown.data!.staffInterpretationBooking, unknown.data!.staffMe.id, code(unknown)]).toEqual([
      null,
      desk.id,
      'NOT_FOUND',
    ]);

    expect(
      (await t.gql(AddBookingNoteDocument, { id: booking.id, text: 'Client wants a Castilian speaker.' }, desk.token))
        .errors,
    ).toBeUndefined();
    expect(
      (await t.gql(AddBookingNoteDocument, { bookingId: booking.id, text: 'Confirmed by phone.' }, desk.token)).errors,
    ).toBeUndefined();
    expect(fieldErrors(await t.gql(AddBookingNoteDocument, { id: booking.id, text: ' ' }, desk.token))).toEqual({
      text: ['The text field is required.'],
    });
    const assigned = await t.gql(
      AssignInterpreterDocument,
      { id: booking.id, interpreterName: 'Ana Ruiz' },
      desk.token,
    );
    expect(assigned.data!.assignInterpreter).toMatchObject({
      interpreterName: 'Ana Ruiz',
      notes: [
        { text: 'Client wants a Castilian speaker.', author: { name: 'Dora Desk' } },
        { text: 'Confirmed by phone.' },
      ],
    });
    const actions = (await audit({ resourceId: booking.id })).map((entry) => entry.action);
    expect(actions).toEqual(['booking.assign_interpreter', 'booking.add_note', 'booking.add_note']);
    expect(
      code(await t.gql(AssignInterpreterDocument, { id: booking.id, interpreterName: 'x' }, translator.token)),
    ).toBe('FORBIDDEN');
  });

  it('lists bookings soonest first by account, window of start times and search, paginated in the database', async () => {
    const bob = await createApprovedAccount(t, admin.token);
    const early = await requestedBooking(inDays(40));
    const late = await requestedBooking(inDays(45));
    const list = async (vars: object) =>
      (await t.gql(StaffBookingDeskDocument, { perPage: 100, ...vars }, desk.token)).data!.staffInterpretationBookings;
    expect((await list({ from: inDays(39), to: inDays(44) })).items.map((b) => b.id)).toEqual([early.id]);
    expect((await list({ from: inDays(39) })).items.map((b) => b.id)).toEqual([early.id, late.id]);
    expect((await list({ accountId: bob.id })).pageInfo.total).toBe(0);
    expect((await list({ search: late.number.slice(-6) })).items.map((b) => b.id)).toEqual([late.id]);
    expect((await list({ search: 'depo garc', from: inDays(39) })).items.map((b) => b.id)).toEqual([early.id, late.id]);
    const paged = await list({ from: inDays(39), perPage: 1, page: 2 });
    expect([paged.items.map((b) => b.id), paged.pageInfo]).toEqual([[late.id], { total: 2, lastPage: 2 }]);
    const backwards = await t.gql(StaffBookingDeskDocument, { from: inDays(45), to: inDays(40) }, desk.token);
    expect(fieldErrors(backwards)).toEqual({ to: ['The to field must be after the from field.'] });
  });

  it('reschedules: never into the past, the duration and price only before payment is asked for, audited and the client e-mailed', async () => {
    const { id, number } = await requestedBooking();
    const past = await t.gql(
      RescheduleInterpretationBookingDocument,
      { id, scheduledAt: new Date(Date.now() - DAY).toISOString() },
      desk.token,
    );
    expect(fieldErrors(past)).toEqual({ scheduledAt: ['The scheduled at field must be a date in the future.'] });
    const longer = await t.gql(
      RescheduleInterpretationBookingDocument,
      { id, scheduledAt: '2031-05-04T15:00:00-04:00', durationHours: 4 },
      desk.token,
    );
    expect(longer.data!.rescheduleInterpretationBooking).toMatchObject({
      scheduledAt: '2031-05-04T19:00:00.000000Z',
      durationHours: 4,
    });
    const before = (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data;
    expect(before.total_cents).toBe(longer.data!.rescheduleInterpretationBooking.totalCents);

    await t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'Ana Ruiz' }, desk.token);
    const afterCheckout = await t.gql(
      RescheduleInterpretationBookingDocument,
      { id, scheduledAt: inDays(20), durationHours: 6 },
      desk.token,
    );
    expect(fieldErrors(afterCheckout)).toEqual({
      durationHours: [
        'The duration changes only before payment is asked for: cancel and book again, or keep the duration.',
      ],
    });
    expect(
      (await t.gql(RescheduleInterpretationBookingDocument, { id, scheduledAt: '2031-05-05T19:00:00Z' }, desk.token))
        .errors,
    ).toBeUndefined();

    const rescheduled = await audit({ resourceId: id, action: 'booking.reschedule' });
    expect(rescheduled).toHaveLength(2);
    expect(rescheduled[0].details).toMatchObject({
      before: { scheduled_at: '2031-05-04T19:00:00.000Z' },
      after: { scheduled_at: '2031-05-05T19:00:00.000Z', duration_hours: 4 },
    });
    const told = (await mails('booking_rescheduled')).filter((mail) => mail.subject.includes(number));
    expect(told).toHaveLength(2);
    // Each time as the client's offset writes it, and in UTC (D29): the first move was written at -04:00.
    expect(told.map((mail) => mail.text!.match(/now starts at ([^,]+),/)![1]).sort()).toEqual([
      '2031-05-04 15:00 UTC-04:00 (2031-05-04 19:00 UTC)',
      '2031-05-05 19:00 UTC',
    ]);
  });

  it('serializes two reschedules at once and a reschedule racing the payment: each applied whole, audited once', async () => {
    for (let round = 0; round < 4; round++) {
      const { id } = await requestedBooking();
      const [one, two] = [inDays(30 + round), inDays(31 + round)];
      const answers = await Promise.all(
        [one, two].map((scheduledAt) =>
          t.gql(RescheduleInterpretationBookingDocument, { id, scheduledAt }, desk.token),
        ),
      );
      expect({ round, errors: answers.map((answer) => answer.errors) }).toEqual({
        round,
        errors: [undefined, undefined],
      });
      const entries = await audit({ resourceId: id, action: 'booking.reschedule' });
      const final = (await t.gql(StaffInterpretationBookingDocument, { id }, desk.token)).data!
        .staffInterpretationBooking!;
      // The later of the two wrote last, from what the earlier one left.
      expect({ round, audited: entries.length, final: final.scheduledAt.slice(0, 19) }).toEqual({
        round,
        audited: 2,
        final: (entries[0].details as { after: { scheduled_at: string } }).after.scheduled_at.slice(0, 19),
      });
      expect((entries[0].details as { before: { scheduled_at: string } }).before.scheduled_at).toBe(
        (entries[1].details as { after: { scheduled_at: string } }).after.scheduled_at,
      );

      const awaiting = await awaitingPayment();
      const moved = inDays(50 + round);
      const [paid, rescheduled] = await Promise.all([
        pay(awaiting.payUrl),
        t.gql(RescheduleInterpretationBookingDocument, { id: awaiting.id, scheduledAt: moved }, desk.token),
      ]);
      expect({ round, paid: paid.status, errors: rescheduled.errors }).toEqual({ round, paid: 200, errors: undefined });
      const booking = (await t.gql(StaffInterpretationBookingDocument, { id: awaiting.id }, desk.token)).data!
        .staffInterpretationBooking!;
      expect({ round, status: booking.status, at: booking.scheduledAt.slice(0, 19) }).toEqual({
        round,
        status: 'CONFIRMED',
        at: moved.slice(0, 19),
      });
      expect({
        round,
        audited: (await audit({ resourceId: awaiting.id, action: 'booking.reschedule' })).length,
      }).toEqual({ round, audited: 1 });
    }
  }, 120_000);
});

describe('the client hears of it (D28)', () => {
  it('e-mails a staff cancel with what is refunded, then the refund once it is made', async () => {
    const unpaid = await requestedBooking();
    await t.gql(
      StaffCancelInterpretationBookingDocument,
      { id: unpaid.id, reason: 'No interpreter available' },
      desk.token,
    );
    const paidBooking = await awaitingPayment();
    await pay(paidBooking.payUrl);
    const { number } = (await t.rest.get(`/api/v1/interpretation-bookings/${paidBooking.id}`, alice.key).expect(200))
      .body.data;
    await t.gql(
      StaffCancelInterpretationBookingDocument,
      { id: paidBooking.id, reason: 'Court date moved' },
      desk.token,
    );

    const cancelled = await mails('cancelled_by_staff');
    const free = cancelled.find((mail) => mail.subject === `Booking ${unpaid.number} was cancelled`)!;
    expect(free.text).toContain('We cancelled Booking ' + unpaid.number + ': No interpreter available');
    expect(free.text).toContain('Nothing was paid for it, so nothing is refunded.');
    const refunded = cancelled.find((mail) => mail.subject === `Booking ${number} was cancelled`)!;
    expect(refunded.text).toMatch(/\$\d+\.\d{2} of your payment is being refunded/);
    const made = (await mails('refund_made')).filter((mail) => mail.subject.startsWith(`Booking ${number}:`));
    expect(made).toHaveLength(1);
    // An order in review, cancelled by the desk: the same two e-mails.
    const order = await certifiedInReview();
    const cancelledOrder = await t.gql(
      StaffCancelOrderDocument,
      { id: order.id, reason: 'Duplicate order' },
      desk.token,
    );
    const orderNumber = cancelledOrder.data!.staffCancelOrder.number;
    const orderMails = (
      await t.gql(SentEmailsDocument, { to: alice.email, perPage: 100 }, admin.token)
    ).data!.sentEmails.items.filter((mail) => mail.subject.startsWith(`Order ${orderNumber}`));
    expect(orderMails.map((mail) => mail.kind).slice(0, 2)).toEqual(['refund_made', 'cancelled_by_staff']);
    expect(orderMails[1].text).toMatch(
      /We cancelled Order .*: Duplicate order\n\n\$\d+\.\d{2} of your payment is being refunded/,
    );
    // A client's own cancel is not a staff cancel: no such e-mail.
    const own = await requestedBooking();
    await t.rest.post(`/api/v1/interpretation-bookings/${own.id}/cancel`, undefined, alice.key).expect(200);
    expect((await mails('cancelled_by_staff')).some((mail) => mail.subject.includes(own.number))).toBe(false);
  });

  it('filters the audit log by actor, action and time', async () => {
    const start = new Date().toISOString();
    const { id } = await requestedBooking();
    await t.gql(AddBookingNoteDocument, { id, text: 'One' }, desk.token);
    await t.gql(AddBookingNoteDocument, { id, text: 'Two' }, admin.token);
    const byDesk = await audit({ actorId: desk.id, action: 'booking.add_note', from: start });
    expect(byDesk.map((entry) => [entry.actorId, entry.resourceId])).toEqual([[desk.id, id]]);
    expect(
      await audit({ resourceId: id, from: new Date(Date.parse(start) - 3600_000).toISOString(), to: start }),
    ).toEqual([]);
    expect((await audit({ resourceId: id, from: start })).length).toBe(2);
    expect(
      (await audit({ action: 'booking.add_note', actorId: admin.id, from: start })).map((entry) => entry.resourceId),
    ).toEqual([id]);
  });
});
