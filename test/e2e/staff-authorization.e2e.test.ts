import { Account } from '../../src/domain/identity/account.entity';
import { accountActor } from '../../src/domain/identity/guards';
import { Booking } from '../../src/domain/bookings/booking.entity';
import { ServiceType } from '../../src/domain/catalog/catalog.enums';
import { Order } from '../../src/domain/orders/order.entity';
import { Readable } from 'node:stream';
import { ForbiddenError, UnauthenticatedError } from '../../src/shared/errors';
import { OPERATOR, type Ctx } from '../../src/domain/identity/context';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Authorization lives in the services (docs/architecture.md): a staff operation refuses an account, or nobody,
 * whichever door (or none, as here) calls it, before it reads its input or touches anything.
 */
let t: TestApp;
let accountCtx: Ctx;
let anonymous: Ctx;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  const alice = await createApprovedAccount(t, await createStaffToken(t));
  const em = t.orm.em.fork();
  const account = await em.findOneOrFail(Account, { id: alice.id });
  accountCtx = { em, requestId: 'test', actor: accountActor(account) };
  anonymous = { em, requestId: 'test', actor: null };
});
afterAll(() => t.close());

const ID = '00000000-0000-4000-8000-000000000000';
/** An upload the refusal must come before: reading it would fail the test on its own. */
const unread = () => ({
  stream: new Readable({
    read: () => {
      throw new Error('the upload was read before the caller was checked');
    },
  }),
});
const notarization = {
  notaryName: 'x',
  commissionNumber: 'x',
  jurisdiction: 'x',
  commissionExpiresOn: '2030-01-01',
  notarizedAt: new Date(),
};

/** Every staff operation, called with no door in front of it. */
const operations: [string, (services: TestApp['services'], ctx: Ctx) => Promise<unknown>][] = [
  ['orders.staffList', (s, ctx) => s.orders.staffList(ctx, {})],
  ['orderDesk.get', (s, ctx) => s.orderDesk.get(ctx, { id: ID })],
  ['orders.hold', (s, ctx) => s.orders.hold(ctx, ID, { reason: 'x' })],
  ['orders.release', (s, ctx) => s.orders.release(ctx, ID)],
  ['orders.staffCancel', (s, ctx) => s.orders.staffCancel(ctx, ID, { reason: 'x' })],
  ['shipping.markShipped', (s, ctx) => s.shipping.markShipped(ctx, ID, { carrier: 'UPS', trackingNumber: '1Z' })],
  ['orderDesk.account', (s, ctx) => s.orderDesk.account(ctx, ctx.em.getReference(Order, ID))],
  ['orderDesk.assignee', (s, ctx) => s.orderDesk.assignee(ctx, ctx.em.getReference(Order, ID))],
  ['orderDesk.assign', (s, ctx) => s.orderDesk.assign(ctx, ID, { staffUserId: ID })],
  ['orderDesk.addNote', (s, ctx) => s.orderDesk.addNote(ctx, ID, { text: 'x' })],
  ['orderDesk.notes', (s, ctx) => s.orderDesk.notes(ctx, [ID])],
  ['certifiedReview.notarizations', (s, ctx) => s.certifiedReview.notarizations(ctx, [ID])],
  [
    'certifiedReview.attachReviewedTranslation',
    (s, ctx) => s.certifiedReview.attachReviewedTranslation(ctx, ID, unread()),
  ],
  ['certifiedReview.approveTranslation', (s, ctx) => s.certifiedReview.approveTranslation(ctx, ID)],
  ['certifiedReview.reviews', (s, ctx) => s.certifiedReview.reviews(ctx, [ID])],
  [
    'certifiedReview.recordNotarization',
    (s, ctx) => s.certifiedReview.recordNotarization(ctx, ID, notarization, unread()),
  ],
  ['certifiedReview.complete', (s, ctx) => s.certifiedReview.complete(ctx, ID, unread())],
  ['catalog.updateRate', (s, ctx) => s.catalog.updateRate(ctx, { serviceType: ServiceType.STANDARD, priceCents: 1 })],
  ['staff.create', (s, ctx) => s.staff.create(ctx, { email: 'x@example.test', name: 'x', role: StaffRole.DESK })],
  ['staff.list', (s, ctx) => s.staff.list(ctx, {})],
  ['staff.updateProfile', (s, ctx) => s.staff.updateProfile(ctx, ID, { name: 'x' })],
  ['staff.deactivate', (s, ctx) => s.staff.deactivate(ctx, ID)],
  ['staff.rotateOwnToken', (s, ctx) => s.staff.rotateOwnToken(ctx)],
  ['staff.rotateByEmail', (s, ctx) => s.staff.rotateByEmail(ctx, { email: 'x@example.test' })],
  ['bookingDesk.list', (s, ctx) => s.bookingDesk.list(ctx, {})],
  ['bookingDesk.get', (s, ctx) => s.bookingDesk.get(ctx, { id: ID })],
  ['bookingDesk.account', (s, ctx) => s.bookingDesk.account(ctx, ctx.em.getReference(Booking, ID))],
  ['bookingDesk.notes', (s, ctx) => s.bookingDesk.notes(ctx, [ID])],
  ['bookingDesk.addNote', (s, ctx) => s.bookingDesk.addNote(ctx, ID, { text: 'x' })],
  ['bookingDesk.assignInterpreter', (s, ctx) => s.bookingDesk.assignInterpreter(ctx, ID, { interpreterName: 'x' })],
  [
    'bookingDesk.reschedule',
    (s, ctx) =>
      s.bookingDesk.reschedule(ctx, ID, { scheduledAt: { date: new Date('2030-01-01T10:00:00Z'), offsetMinutes: 0 } }),
  ],
  ['staff.me', (s, ctx) => s.staff.me(ctx)],
  ['bookings.confirmAvailability', (s, ctx) => s.bookings.confirmAvailability(ctx, ID, { interpreterName: 'x' })],
  ['bookings.complete', (s, ctx) => s.bookings.complete(ctx, ID, {})],
  ['bookings.hold', (s, ctx) => s.bookings.hold(ctx, ID, { reason: 'x' })],
  ['bookings.release', (s, ctx) => s.bookings.release(ctx, ID)],
  ['bookings.staffCancel', (s, ctx) => s.bookings.staffCancel(ctx, ID, { reason: 'x' })],
  ['bookings.replaceInterpreter', (s, ctx) => s.bookings.replaceInterpreter(ctx, ID, { interpreterId: ID })],
  ['bookings.cancellationFeeNow', (s, ctx) => s.bookings.cancellationFeeNow(ctx, ctx.em.getReference(Booking, ID))],
  ['interpreters.list', (s, ctx) => s.interpreters.list(ctx, {})],
  [
    'interpreters.create',
    (s, ctx) =>
      s.interpreters.create(ctx, {
        name: 'x',
        email: 'x@example.test',
        languages: ['es'],
        modes: [],
        qualifications: [],
      }),
  ],
  ['interpreters.update', (s, ctx) => s.interpreters.update(ctx, ID, { active: false, ...UNCHANGED_LISTS })],
  ['accounts.create', (s, ctx) => s.accounts.create(ctx, { name: 'x', email: 'x@example.test' })],
  ['accounts.approve', (s, ctx) => s.accounts.approve(ctx, ID)],
  ['accounts.suspend', (s, ctx) => s.accounts.suspend(ctx, ID)],
  ['accounts.regenerateKey', (s, ctx) => s.accounts.regenerateKey(ctx, ID)],
  ['accounts.revokeKey', (s, ctx) => s.accounts.revokeKey(ctx, ID)],
  ['accounts.list', (s, ctx) => s.accounts.list(ctx, {})],
  ['audit.list', (s, ctx) => s.audit.list(ctx, {})],
  ['sentEmails.list', (s, ctx) => s.sentEmails.list(ctx, {})],
];

/** An interpreter's lists left as they are. */
const UNCHANGED_LISTS = { languages: undefined, modes: undefined, qualifications: undefined };

it.each(operations)('%s refuses an account (403) and nobody (401)', async (_name, call) => {
  await expect(call(t.services, accountCtx)).rejects.toBeInstanceOf(ForbiddenError);
  await expect(call(t.services, anonymous)).rejects.toBeInstanceOf(UnauthenticatedError);
});

/** The command line may make the first admin and give a locked-out one a new token: nothing else. */
const OPERATOR_MAY = ['staff.create', 'staff.rotateByEmail'];
it.each(operations.filter(([name]) => !OPERATOR_MAY.includes(name)))(
  '%s refuses the command line operator (403)',
  async (_name, call) => {
    await expect(call(t.services, { ...anonymous, actor: OPERATOR })).rejects.toBeInstanceOf(ForbiddenError);
  },
);
