import { Lifecycle, type LifecycleEvent } from '../lifecycle/lifecycle';
import { Order, OrderStatus } from './order.entity';
import { orderTransitions, type OrderAction } from './order.states';

export type OrderLifecycle = Lifecycle<OrderStatus, Order, OrderAction>;
export type OrderEvent = LifecycleEvent<OrderStatus, Order>;

export const RUSH = 'rush_2h';
export const isRush = (order: Order) => order.addons.some((line) => line.code === RUSH);

/**
 * Every order status change (the statuses of the OpenAPI `Order` schema, D10, D26): the table and its rules in
 * order.states.ts. What entering a state does is its events' subscribers' (`order.subscribers.ts`, and the mail
 * area's `order-mail.subscribers.ts`), wired in `src/services.ts`.
 */
export function orderLifecycle(): OrderLifecycle {
  return new Lifecycle<OrderStatus, Order, OrderAction>({
    entity: Order,
    noun: 'order',
    table: orderTransitions,
    onHold: OrderStatus.ON_HOLD,
    completed: OrderStatus.COMPLETED,
    cancelled: OrderStatus.CANCELLED,
    payment: { awaiting: OrderStatus.PENDING_PAYMENT, paid: OrderStatus.PROCESSING },
  });
}
