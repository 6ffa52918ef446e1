import type { JobQueue } from '../../jobs/job-queue';
import type { Mailer } from '../../providers/mail/mailer';
import { accountOf } from '../identity/account-of';
import type { AuditService } from '../audit/audit.service';
import { onHoldEmail, orderCompletedEmail, shippingAddressNeededEmail } from '../mail/messages';
import { billedUnits } from '../quotes/billed-units';
import { tellStaffCancel } from '../payments/staff-cancel-notice';
import { hasHardCopies } from '../quotes/shipping-address';
import { Lifecycle } from '../lifecycle/lifecycle';
import type { PageLinks } from '../mail/page-links';
import { scheduleOrderExpiry } from './document-retention.queries';
import type { AddressLinks } from './address-links';
import { Order, OrderStatus } from './order.entity';
import { AWAITING_CLIENT, orderTransitions, type OrderAction } from './order.states';

export type OrderLifecycle = Lifecycle<OrderStatus, Order, OrderAction>;

export const RUSH = 'rush_2h';
export const isRush = (order: Order) => order.addons.some((line) => line.code === RUSH);

/**
 * Every order status change (the statuses of the OpenAPI `Order` schema, D10, D26): the table and its rules in order.states.ts, and what entering a state
 * does. Processing queues the translation (rush first); completed, on hold and a staff cancel tell the account, and
 * completed asks for the address of hard copies that have none.
 */
export function orderLifecycle(deps: {
  audit: AuditService;
  queue: JobQueue;
  mailer: Mailer;
  addressLinks: AddressLinks;
  pages: PageLinks;
}): OrderLifecycle {
  return new Lifecycle<OrderStatus, Order, OrderAction>({
    entity: Order,
    noun: 'order',
    table: orderTransitions,
    onHold: OrderStatus.ON_HOLD,
    completed: OrderStatus.COMPLETED,
    cancelled: OrderStatus.CANCELLED,
    payment: { awaiting: OrderStatus.PENDING_PAYMENT, paid: OrderStatus.PROCESSING },
    audit: deps.audit,
    async entered(em, order, _from, cause) {
      // Finished: its documents fall due after the account's retention period (D33).
      if (order.status === OrderStatus.COMPLETED || order.status === OrderStatus.CANCELLED)
        await scheduleOrderExpiry(em, order.id);
      if (order.status === OrderStatus.PROCESSING) {
        await deps.queue.enqueue(em, 'translate-order', { orderId: order.id }, { priority: isRush(order) ? 10 : 0 });
      } else if (order.status === OrderStatus.COMPLETED) {
        const account = await accountOf(em, order);
        const billed = billedUnits(order);
        await deps.mailer.send(
          em,
          orderCompletedEmail(account, { number: order.number, billed }, deps.pages.portalOrder(order.id)),
        );
        // Completed is final, so this asks once (D22).
        if (hasHardCopies(order) && !order.shippingAddress)
          await deps.mailer.send(em, shippingAddressNeededEmail(account, order, deps.addressLinks.url(order.id)));
      } else if (order.status === OrderStatus.ON_HOLD && cause.reason !== AWAITING_CLIENT) {
        // Held for the client's answer, the client is told by the message that asks (D30), not twice.
        await deps.mailer.send(
          em,
          onHoldEmail(await accountOf(em, order), `Order ${order.number}`, cause.reason ?? 'Staff will contact you.'),
        );
      } else if (order.status === OrderStatus.CANCELLED) {
        await tellStaffCancel(em, deps.mailer, order, `Order ${order.number}`, cause);
      }
    },
  });
}
