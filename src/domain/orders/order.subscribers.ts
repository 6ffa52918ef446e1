import type { JobQueue } from '../../jobs/job-queue';
import type { Subscriber } from '../shared/event-hub';
import { scheduleOrderExpiry } from './document-retention.queries';
import { Order, OrderStatus } from './order.entity';
import { isRush, type OrderEvent } from './order.lifecycle';

/**
 * What entering an order's states does, each a subscriber of the order lifecycle's events run in the moving
 * transaction (docs/architecture.md "Domain events"): they commit with the move or not at all.
 */

/** Finished: its documents fall due after the account's retention period (D33). */
export const scheduleExpiry: Subscriber<OrderEvent> = async (em, { kind, row, to }) => {
  if (kind === 'moved' && (to === OrderStatus.COMPLETED || to === OrderStatus.CANCELLED))
    await scheduleOrderExpiry(em, row.id);
};

/**
 * A revision's move shows on the order it revises (D30), whose answer lists its revisions with their statuses: the
 * original is touched, so its version (ETag), `updated_since` and the portal's change marks see it. The revision is
 * locked first, then the original updated: revision creation locks the original and never the revision, so the two
 * cannot wait on each other.
 */
export const touchRevisedOrder: Subscriber<OrderEvent> = async (em, { kind, row }) => {
  if (kind === 'moved' && row.revisionOf)
    await em.nativeUpdate(Order, { id: row.revisionOf.id }, { updatedAt: new Date() });
};

/** Processing queues the translation, rush first. */
export function queueTranslation(queue: JobQueue): Subscriber<OrderEvent> {
  return async (em, { kind, row, to }) => {
    if (kind === 'moved' && to === OrderStatus.PROCESSING)
      await queue.enqueue(em, 'translate-order', { orderId: row.id }, { priority: isRush(row) ? 10 : 0 });
  };
}
