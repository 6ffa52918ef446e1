import { Account } from '../../src/domain/accounts/account.entity';
import { accountActor } from '../../src/domain/accounts/authentication.service';
import { Order } from '../../src/domain/orders/order.entity';
import { ForbiddenError, UnauthenticatedError } from '../../src/shared/errors';
import type { Ctx } from '../../src/domain/shared/context';
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

it.each([
  ['orders.staffList', (s: TestApp['services'], ctx: Ctx) => s.orders.staffList(ctx, {})],
  ['orders.hold', (s: TestApp['services'], ctx: Ctx) => s.orders.hold(ctx, ID, { reason: 'x' })],
  ['orders.release', (s: TestApp['services'], ctx: Ctx) => s.orders.release(ctx, ID)],
  ['orders.staffCancel', (s: TestApp['services'], ctx: Ctx) => s.orders.staffCancel(ctx, ID, { reason: 'x' })],
  ['orders.markShipped', (s: TestApp['services'], ctx: Ctx) => s.orders.markShipped(ctx, ID, { carrier: 'UPS', tracking_number: '1Z' })],
  ['orderDesk.account', (s: TestApp['services'], ctx: Ctx) => s.orderDesk.account(ctx, ctx.em.getReference(Order, ID))],
  ['orderDesk.assignee', (s: TestApp['services'], ctx: Ctx) => s.orderDesk.assignee(ctx, ctx.em.getReference(Order, ID))],
  ['bookings.staffList', (s: TestApp['services'], ctx: Ctx) => s.bookings.staffList(ctx, {})],
  ['bookings.confirmAvailability', (s: TestApp['services'], ctx: Ctx) => s.bookings.confirmAvailability(ctx, ID, { interpreter_name: 'x' })],
  ['bookings.complete', (s: TestApp['services'], ctx: Ctx) => s.bookings.complete(ctx, ID)],
  ['bookings.hold', (s: TestApp['services'], ctx: Ctx) => s.bookings.hold(ctx, ID, { reason: 'x' })],
  ['bookings.release', (s: TestApp['services'], ctx: Ctx) => s.bookings.release(ctx, ID)],
  ['bookings.staffCancel', (s: TestApp['services'], ctx: Ctx) => s.bookings.staffCancel(ctx, ID, { reason: 'x' })],
  ['accounts.create', (s: TestApp['services'], ctx: Ctx) => s.accounts.create(ctx, { name: 'x', email: 'x@example.test' })],
  ['accounts.approve', (s: TestApp['services'], ctx: Ctx) => s.accounts.approve(ctx, ID)],
  ['accounts.suspend', (s: TestApp['services'], ctx: Ctx) => s.accounts.suspend(ctx, ID)],
  ['accounts.regenerateKey', (s: TestApp['services'], ctx: Ctx) => s.accounts.regenerateKey(ctx, ID)],
  ['accounts.revokeKey', (s: TestApp['services'], ctx: Ctx) => s.accounts.revokeKey(ctx, ID)],
  ['accounts.list', (s: TestApp['services'], ctx: Ctx) => s.accounts.list(ctx, {})],
  ['audit.list', (s: TestApp['services'], ctx: Ctx) => s.audit.list(ctx, {})],
  ['sentEmails.list', (s: TestApp['services'], ctx: Ctx) => s.sentEmails.list(ctx, {})],
])('%s refuses an account (403) and nobody (401)', async (_name, call) => {
  await expect(call(t.services, accountCtx)).rejects.toBeInstanceOf(ForbiddenError);
  await expect(call(t.services, anonymous)).rejects.toBeInstanceOf(UnauthenticatedError);
});
