import { cannot, defineTransitions, onlyIn } from '../lifecycle/state-machine';
import { OrderStatus, type Order } from './order.entity';

/** The client may cancel only these (`cancelOrder`); staff may cancel any order not finished (D10). */
const CLIENT_CANCELLABLE: readonly OrderStatus[] = [OrderStatus.PENDING_PAYMENT, OrderStatus.ON_HOLD];

/**
 * The `hold_reason` of an order staff put on hold until the client answers their message (D30, the contract's
 * "operator follows up"): the client's next message releases it.
 */
export const AWAITING_CLIENT = 'awaiting_client';

/** Review work happens in review, or on hold (a held order is finished by staff, then released) (D19). */
const REVIEWABLE: readonly OrderStatus[] = [OrderStatus.IN_REVIEW, OrderStatus.ON_HOLD];

/** What may be done to an order in place, without moving it. */
export type OrderAction =
  'attach_reviewed_translation' | 'approve_translation' | 'record_notarization' | 'set_shipping_address' | 'ship';

/**
 * The statuses of the OpenAPI `Order` schema, and D10. Holds come from the pipeline or staff; a release returns to `heldFrom`. The guard says who
 * may make which move, the actions what may be done in which state.
 */
export const orderTransitions = defineTransitions<OrderStatus, Order, OrderAction>({
  initial: OrderStatus.PENDING_PAYMENT,
  moves: {
    [OrderStatus.PENDING_PAYMENT]: [OrderStatus.PROCESSING, OrderStatus.ON_HOLD, OrderStatus.CANCELLED],
    [OrderStatus.PROCESSING]: [
      OrderStatus.IN_REVIEW,
      OrderStatus.COMPLETED,
      OrderStatus.ON_HOLD,
      OrderStatus.CANCELLED,
    ],
    [OrderStatus.IN_REVIEW]: [OrderStatus.COMPLETED, OrderStatus.ON_HOLD, OrderStatus.CANCELLED],
    [OrderStatus.ON_HOLD]: [
      OrderStatus.PENDING_PAYMENT,
      OrderStatus.PROCESSING,
      OrderStatus.IN_REVIEW,
      OrderStatus.CANCELLED,
    ],
    [OrderStatus.COMPLETED]: [],
    [OrderStatus.CANCELLED]: [],
  },
  guard(from, to, _order, { actor }) {
    if (to === OrderStatus.CANCELLED && actor?.kind === 'account' && !CLIENT_CANCELLABLE.includes(from))
      return cannot('cancel the order', from);
    // From processing only the pipeline completes an order (a standard one, translated); staff complete reviewed work.
    if (from === OrderStatus.PROCESSING && to === OrderStatus.COMPLETED && actor !== null)
      return cannot('complete the order', from);
    return undefined;
  },
  actions: {
    // D30: a translator also attaches while a certified scan waits for them in processing.
    attach_reviewed_translation: (order) =>
      order.status === OrderStatus.PROCESSING && order.awaitingTranslator
        ? undefined
        : onlyIn(REVIEWABLE, 'attach a translation')(order),
    approve_translation: onlyIn(REVIEWABLE, 'approve a translation'),
    record_notarization: onlyIn(REVIEWABLE, 'record a notarization'),
    // D22: the client says where hard copies go at any time before they ship, unless the order was cancelled.
    set_shipping_address: (order) => {
      if (order.status === OrderStatus.CANCELLED) return cannot('set the shipping address', order.status);
      if (order.shippedAt)
        return { field: 'shipment', message: 'The hard copies have already shipped; contact us to redirect them.' };
      return undefined;
    },
    // D22: hard copies ship once the order is completed, to the address the client gave.
    ship: (order) => {
      if (order.status !== OrderStatus.COMPLETED) return cannot('ship the order', order.status);
      if (!order.shippingAddress)
        return { field: 'shipping_address', message: 'The client has not given a shipping address yet.' };
      return undefined;
    },
  },
});

/** The statuses with no way out: an order in one is finished (the desk's open work is every other). */
export const FINISHED_ORDER_STATUSES: readonly OrderStatus[] = orderTransitions.terminal;
