import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runSql } from '../../src/db/orm-driver';
import { AuditEntry } from '../../src/domain/audit/audit-entry.entity';
import { Booking } from '../../src/domain/bookings/booking.entity';
import { Account, AccountStatus } from '../../src/domain/identity/account.entity';
import type { Actor } from '../../src/domain/identity/context';
import { SentEmail } from '../../src/domain/mail/sent-email.entity';
import { OrderMessage } from '../../src/domain/orders/order-message.entity';
import { Order, OrderStatus } from '../../src/domain/orders/order.entity';
import type { EventHub } from '../../src/domain/shared/event-hub';
import { insertAccount, insertBooking, insertOrder } from '../helpers/rows';
import { staffAdmin, startTestServices, type TestServices } from '../helpers/test-services';

/**
 * The events the areas raise for the mail area (docs/architecture.md "Domain events"), through the services as the
 * composition root wires them: the mail area writes its e-mail in the raising transaction, so the e-mail commits with
 * the change, and a subscriber that throws after it undoes both.
 */
let t: TestServices;
let staff: Actor;

beforeAll(async () => {
  t = await startTestServices();
  staff = await staffAdmin(t, 'mail-events@example.test');
});

afterAll(() => t.close());

/** The subjects of what committed to `to`, read by a fresh EntityManager. */
const mailsTo = async (to: string): Promise<string[]> =>
  (await t.orm.em.fork().find(SentEmail, { to }, { orderBy: { createdAt: 'asc' } })).map((mail) => mail.subject);

/** The audit actions that committed about a row. */
const auditOf = async (id: string): Promise<string[]> =>
  (await t.orm.em.fork().find(AuditEntry, { resourceId: id }, { orderBy: { createdAt: 'asc' } })).map(
    (entry) => entry.action,
  );

/**
 * Runs `change` with a subscriber of `hub` after the mail area's that reads, in the raising transaction, the e-mails
 * to `to` and then throws; answers what it read there.
 */
async function failingAfterTheMail<E>(hub: EventHub<E>, to: string, change: () => Promise<unknown>): Promise<string[]> {
  const inside: string[] = [];
  const off = hub.subscribe(async (em) => {
    const rows = await runSql<{ subject: string }>(em, 'SELECT subject FROM sent_emails WHERE "to" = ?', [to]);
    inside.push(...rows.map((row) => row.subject));
    throw new Error('subscriber failed');
  });
  try {
    await expect(change()).rejects.toThrow('subscriber failed');
  } finally {
    off();
  }
  return inside;
}

describe('an API key issued (AccountEvent)', () => {
  const pending = () => insertAccount(t.orm.em.fork(), { status: AccountStatus.PENDING });
  const approve = (account: Account) => t.services.accounts.approve(t.ctx(staff), account.id);
  const statusOf = async (account: Account) =>
    (await t.orm.em.fork().findOneOrFail(Account, { id: account.id })).status;

  it('is e-mailed to the account in the approving transaction', async () => {
    const account = await pending();
    await approve(account);
    expect(await statusOf(account)).toBe(AccountStatus.APPROVED);
    expect(await mailsTo(account.email)).toEqual(['Your API key']);
  });

  it('is not e-mailed when the approval rolls back', async () => {
    const account = await pending();
    const inside = await failingAfterTheMail(t.services.events.accounts, account.email, () => approve(account));
    expect(inside).toEqual(['Your API key']);
    expect(await statusOf(account)).toBe(AccountStatus.PENDING);
    expect(await mailsTo(account.email)).toEqual([]);
    expect(await auditOf(account.id)).toEqual([]);
  });
});

describe('a staff message on an order (OrderActivity)', () => {
  const processingOrder = async () => {
    const em = t.orm.em.fork();
    return insertOrder(em, await insertAccount(em), { status: OrderStatus.PROCESSING });
  };
  const ask = (order: Order) =>
    t.services.orderMessages.postAsStaff(t.ctx(staff), order.id, {
      text: 'Which page is missing?',
      waitForClient: true,
    });
  const stored = async (order: Order) => {
    const em = t.orm.em.fork();
    return {
      status: (await em.findOneOrFail(Order, { id: order.id })).status,
      messages: await em.count(OrderMessage, { order: order.id }),
    };
  };

  it('is e-mailed to the client with the hold and the message, in their transaction', async () => {
    const order = await processingOrder();
    await ask(order);
    expect(await stored(order)).toEqual({ status: OrderStatus.ON_HOLD, messages: 1 });
    expect(await auditOf(order.id)).toEqual(['order.hold', 'order.post_message']);
    expect(await mailsTo(order.account.email)).toEqual([`Order ${order.number}: we need your answer`]);
  });

  it('is not e-mailed when the message rolls back, and neither is the order held', async () => {
    const order = await processingOrder();
    const inside = await failingAfterTheMail(t.services.events.orders, order.account.email, () => ask(order));
    expect(inside).toEqual([`Order ${order.number}: we need your answer`]);
    expect(await stored(order)).toEqual({ status: OrderStatus.PROCESSING, messages: 0 });
    expect(await auditOf(order.id)).toEqual([]);
    expect(await mailsTo(order.account.email)).toEqual([]);
  });
});

describe('a booking rescheduled (BookingActivity)', () => {
  const requested = async () => {
    const em = t.orm.em.fork();
    return insertBooking(em, await insertAccount(em));
  };
  const newStart = new Date(Date.now() + 10 * 86_400_000);
  const reschedule = (booking: Booking) =>
    t.services.bookingDesk.reschedule(t.ctx(staff), booking.id, { scheduledAt: { date: newStart, offsetMinutes: 0 } });
  const startOf = async (booking: Booking) =>
    (await t.orm.em.fork().findOneOrFail(Booking, { id: booking.id })).scheduledAt;

  it('is e-mailed to the account in the rescheduling transaction', async () => {
    const booking = await requested();
    await reschedule(booking);
    expect(await startOf(booking)).toEqual(newStart);
    expect(await mailsTo(booking.account.email)).toEqual([`Booking ${booking.number} was rescheduled`]);
  });

  it('is not e-mailed when the reschedule rolls back', async () => {
    const booking = await requested();
    const inside = await failingAfterTheMail(t.services.events.bookings, booking.account.email, () =>
      reschedule(booking),
    );
    expect(inside).toEqual([`Booking ${booking.number} was rescheduled`]);
    expect(await startOf(booking)).toEqual(booking.scheduledAt);
    expect(await auditOf(booking.id)).toEqual([]);
    expect(await mailsTo(booking.account.email)).toEqual([]);
  });
});
