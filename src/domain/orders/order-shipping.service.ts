import { requireAccountId, requireStaff } from '../identity/guards';
import { hasHardCopies, sameAddress, shippingAddressOf } from '../quotes/shipping-address';
import type { Ctx } from '../identity/context';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isId } from '../shared/ids';
import type { PolledOrder } from './order-read';
import type { Order } from './order.entity';
import type { OrderService } from './order.service';
import { SHIPMENT_CORRECTED, SHIPPED, shipmentOf } from './shipment';
import type { MarkShipped, SetShippingAddress } from './shipping.commands';

const NO_HARD_COPIES = 'The order has no hard copies to ship.';

/**
 * Mailed hard copies of an order (D22): where they go, set by the client at any time before shipment, and the parcel
 * staff hand to a carrier once the order is completed. Both run in the order's lock, so an address set while staff
 * ship, or while the order completes, is either in time for them or refused (`shipment`), never half applied.
 */
export class OrderShippingService {
  constructor(private readonly deps: { orders: OrderService }) {}

  /**
   * The client's `PUT /orders/{id}/shipping_address`: allowed in every status but cancelled, until shipment. The
   * same address again changes nothing (idempotent: no audit row, the same ETag).
   */
  async setAddress(ctx: Ctx, id: unknown, command: SetShippingAddress): Promise<PolledOrder> {
    const accountId = requireAccountId(ctx.actor, 'orders.set_shipping_address');
    if (!isId(id)) throw new NotFoundError();
    await this.deps.orders.version(ctx, id);
    const address = shippingAddressOf(command);
    await this.deps.orders.lifecycle.change(ctx.em, { id, account: accountId }, async (em, order) => {
      if (!hasHardCopies(order))
        throw ValidationError.of(
          'shipping_address',
          'The order has no hard copies; a shipping address is only for orders with hard copies.',
        );
      this.deps.orders.lifecycle.assertAction(order, 'set_shipping_address');
      if (sameAddress(order.shippingAddress, address)) return;
      const before = order.shippingAddress;
      order.shippingAddress = address;
      await this.deps.orders.lifecycle.record(
        em,
        order,
        order.status,
        { actor: ctx.actor, action: 'set_shipping_address' },
        { from: before, to: address },
      );
      await em.flush();
    });
    return this.deps.orders.get(ctx, id);
  }

  /**
   * Staff hand the hard copies of a completed order to a carrier (D22): recorded on the order, so audited and the
   * account e-mailed the tracking number (docs/architecture.md "Domain events"). Called again with other details it
   * corrects them (recorded so, and the account told the right ones); with the same details it changes nothing.
   * `shipped_at` stays the moment the parcel was first recorded.
   */
  async markShipped(ctx: Ctx, id: unknown, command: MarkShipped): Promise<Order> {
    requireStaff(ctx.actor, 'markShipped');
    const { carrier, trackingNumber } = command;
    if (!isId(id)) throw new NotFoundError();
    const { lifecycle } = this.deps.orders;
    return lifecycle.change(ctx.em, { id }, async (em, order) => {
      if (!hasHardCopies(order)) throw ValidationError.of('order', NO_HARD_COPIES);
      lifecycle.assertAction(order, 'ship');
      const before = shipmentOf(order);
      if (before?.carrier === carrier && before.trackingNumber === trackingNumber) return;
      Object.assign(order, {
        shipmentCarrier: carrier,
        shipmentTrackingNumber: trackingNumber,
        shippedAt: before?.shippedAt ?? new Date(),
      });
      const correction = before ? { from_carrier: before.carrier, from_tracking_number: before.trackingNumber } : {};
      await lifecycle.record(
        em,
        order,
        order.status,
        { actor: ctx.actor, action: before ? SHIPMENT_CORRECTED : SHIPPED },
        { carrier, tracking_number: trackingNumber, ...correction },
      );
      await em.flush();
    });
  }
}
