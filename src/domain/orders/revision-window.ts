import type { Order } from './order.entity';

/** How long after the first delivery a free revision may be asked for (D30). */
export const REVISION_WINDOW_DAYS = 30;

type Delivered = Pick<Order, 'completedAt' | 'revisionWindowFrom'>;

/** When the work `order` belongs to was first delivered: its own completion, or for a revision its chain's first. */
export const firstDelivery = (order: Delivered): Date | null => order.revisionWindowFrom ?? order.completedAt;

/** The end of the free-revision window of `order`'s work (D30); null until it is delivered. */
export function revisionWindowClosesAt(order: Delivered): Date | null {
  const from = firstDelivery(order);
  return from && new Date(from.getTime() + REVISION_WINDOW_DAYS * 24 * 60 * 60 * 1000);
}
