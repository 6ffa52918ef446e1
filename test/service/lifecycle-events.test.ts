import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/core';
import { runSql } from '../../src/db/orm-driver';
import { AuditEntry } from '../../src/domain/audit/audit-entry.entity';
import type { Actor } from '../../src/domain/identity/context';
import { OPERATOR } from '../../src/domain/identity/context';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { SentEmail } from '../../src/domain/mail/sent-email.entity';
import { Order, OrderStatus } from '../../src/domain/orders/order.entity';
import { insertAccount, insertOrder } from '../helpers/rows';
import { startTestServices, type TestServices } from '../helpers/test-services';

/**
 * The lifecycle's events (docs/architecture.md "Domain events") through the services as the composition root wires
 * them: the audit row, the e-mail and the job are its subscribers' and commit with the move or not at all.
 */
let t: TestServices;
let staff: Actor;

beforeAll(async () => {
  t = await startTestServices();
  const { staffUser } = await t.services.staff.create(t.ctx(OPERATOR), {
    email: 'events@example.test',
    name: 'Eve Events',
    role: StaffRole.ADMIN,
    credentials: '',
  });
  staff = { kind: 'staff', staff: staffUser };
});

afterAll(() => t.close());

async function processingOrder(): Promise<Order> {
  const em = t.orm.em.fork();
  return insertOrder(em, await insertAccount(em), { status: OrderStatus.PROCESSING });
}

/** What committed about an order, read by a fresh EntityManager. */
async function stored(order: Order) {
  const em = t.orm.em.fork();
  const account = (await em.findOneOrFail(Order, { id: order.id }, { populate: ['account'] })).account;
  return {
    status: (await em.findOneOrFail(Order, { id: order.id })).status,
    audit: (await em.find(AuditEntry, { resourceId: order.id })).map(
      (entry) => `${entry.action} ${entry.fromState} -> ${entry.toState}`,
    ),
    mails: (await em.find(SentEmail, { to: account.email })).map((mail) => mail.subject),
  };
}

/** The order's status as its transaction sees it, before the commit. */
const statusInside = async (em: EntityManager, id: string): Promise<string | undefined> =>
  (await runSql<{ status: string }>(em, 'SELECT status FROM orders WHERE id = ?', [id]))[0]?.status;

describe('an order moved by its lifecycle', () => {
  it('raises one event whose subscribers write the audit row and e-mail the account, in the moving transaction', async () => {
    const order = await processingOrder();
    const seen: unknown[] = [];
    const off = t.services.orders.lifecycle.events.subscribe(async (em, event) => {
      seen.push([event.kind, event.from, event.to, await statusInside(em, event.row.id)]);
    });
    try {
      await t.services.orders.hold(t.ctx(staff), order.id, { reason: 'Checking the scan' });
    } finally {
      off();
    }
    // The subscriber saw the move written in its transaction, before the commit.
    expect(seen).toEqual([['moved', OrderStatus.PROCESSING, OrderStatus.ON_HOLD, OrderStatus.ON_HOLD]]);
    const after = await stored(order);
    expect(after.status).toBe(OrderStatus.ON_HOLD);
    expect(after.audit).toEqual(['order.hold processing -> on_hold']);
    expect(after.mails).toEqual([expect.stringContaining('on hold')]);
  });

  it('is undone, audit row and e-mail with it, when a subscriber throws', async () => {
    const order = await processingOrder();
    const off = t.services.orders.lifecycle.events.subscribe(() => Promise.reject(new Error('subscriber failed')));
    try {
      await expect(t.services.orders.hold(t.ctx(staff), order.id, { reason: 'Checking' })).rejects.toThrow(
        'subscriber failed',
      );
    } finally {
      off();
    }
    expect(await stored(order)).toEqual({ status: OrderStatus.PROCESSING, audit: [], mails: [] });
  });

  it('records in place what is done to a row that does not move, as a recorded event', async () => {
    const order = await processingOrder();
    const kinds: string[] = [];
    const off = t.services.orders.lifecycle.events.subscribe((_em, event) => {
      kinds.push(`${event.kind} ${event.cause.action}`);
      return Promise.resolve();
    });
    try {
      await t.services.orderDesk.addNote(t.ctx(staff), order.id, { text: 'Called the client.' });
    } finally {
      off();
    }
    expect(kinds).toEqual(['recorded add_note']);
    expect((await stored(order)).audit).toEqual(['order.add_note processing -> processing']);
  });
});
