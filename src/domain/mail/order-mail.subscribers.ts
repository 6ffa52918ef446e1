import type { Mailer } from '../../providers/mail/mailer';
import { accountOf } from '../identity/account-of';
import type { AddressLinks } from '../orders/address-links';
import { OrderStatus } from '../orders/order.entity';
import type { OrderEvent } from '../orders/order.lifecycle';
import { AWAITING_CLIENT } from '../orders/order.states';
import { SHIPMENT_CORRECTED, SHIPPED, shipmentOf } from '../orders/shipment';
import { billedUnits } from '../quotes/billed-units';
import { hasHardCopies } from '../quotes/shipping-address';
import type { Subscriber } from '../shared/event-hub';
import { hardCopiesShippedEmail, onHoldEmail, orderCompletedEmail, shippingAddressNeededEmail } from './messages';
import type { PageLinks } from './page-links';
import { tellStaffCancel } from './staff-cancel-mail';

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

/** Hard copies handed to a carrier tell the account how to follow them, and so does a correction of them (D22). */
export function tellAccountOfShipment(mailer: Mailer): Subscriber<OrderEvent> {
  return async (em, { kind, row: order, cause }) => {
    if (kind !== 'recorded' || (cause.action !== SHIPPED && cause.action !== SHIPMENT_CORRECTED)) return;
    await mailer.send(
      em,
      hardCopiesShippedEmail(await accountOf(em, order), order.number, shipmentOf(order)!, {
        corrected: cause.action === SHIPMENT_CORRECTED,
      }),
    );
  };
}
