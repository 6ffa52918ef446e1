import type { JobQueue } from '../../jobs/job-queue';
import type { Mailer } from '../../providers/mail/mailer';
import { accountOf } from '../identity/account-of';
import { onHoldEmail, orderCompletedEmail, shippingAddressNeededEmail } from '../mail/messages';
import type { PageLinks } from '../mail/page-links';
import { tellStaffCancel } from '../mail/staff-cancel-mail';
import { billedUnits } from '../quotes/billed-units';
import { hasHardCopies } from '../quotes/shipping-address';
import type { Subscriber } from '../shared/event-hub';
import type { AddressLinks } from './address-links';
import { scheduleOrderExpiry } from './document-retention.queries';
import { OrderStatus } from './order.entity';
import { isRush, type OrderEvent } from './order.lifecycle';
import { AWAITING_CLIENT } from './order.states';

/**
 * What entering an order's states does, each a subscriber of the order lifecycle's events run in the moving
 * transaction (docs/architecture.md "Domain events"): they commit with the move or not at all.
 */

/** Finished: its documents fall due after the account's retention period (D33). */
export const scheduleExpiry: Subscriber<OrderEvent> = async (em, { kind, row, to }) => {
  if (kind === 'moved' && (to === OrderStatus.COMPLETED || to === OrderStatus.CANCELLED))
    await scheduleOrderExpiry(em, row.id);
};

/** Processing queues the translation, rush first. */
export function queueTranslation(queue: JobQueue): Subscriber<OrderEvent> {
  return async (em, { kind, row, to }) => {
    if (kind === 'moved' && to === OrderStatus.PROCESSING)
      await queue.enqueue(em, 'translate-order', { orderId: row.id }, { priority: isRush(row) ? 10 : 0 });
  };
}

/**
 * Completed, on hold and a staff cancel tell the account; completed also asks for the address of hard copies that
 * have none, once, as completed is final (D22).
 */
export function tellAccountOfOrder(deps: {
  mailer: Mailer;
  addressLinks: AddressLinks;
  pages: PageLinks;
}): Subscriber<OrderEvent> {
  const { mailer, addressLinks, pages } = deps;
  return async (em, { kind, row: order, to, cause }) => {
    if (kind !== 'moved') return;
    if (to === OrderStatus.COMPLETED) {
      const account = await accountOf(em, order);
      const billed = billedUnits(order);
      await mailer.send(
        em,
        orderCompletedEmail(account, { number: order.number, billed }, pages.portalOrder(order.id)),
      );
      if (hasHardCopies(order) && !order.shippingAddress)
        await mailer.send(em, shippingAddressNeededEmail(account, order, addressLinks.url(order.id)));
    } else if (to === OrderStatus.ON_HOLD && cause.reason !== AWAITING_CLIENT) {
      // Held for the client's answer, the client is told by the message that asks (D30), not twice.
      const account = await accountOf(em, order);
      await mailer.send(em, onHoldEmail(account, `Order ${order.number}`, cause.reason ?? 'Staff will contact you.'));
    } else if (to === OrderStatus.CANCELLED) {
      await tellStaffCancel(em, mailer, order, `Order ${order.number}`, cause);
    }
  };
}
