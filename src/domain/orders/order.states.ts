import { defineTransitions } from '../shared/state-machine';
import { OrderStatus } from './order.entity';

/**
 * Contract 3.1 and D10. Holds come from the pipeline or staff; a release returns to `heldFrom`. Which of
 * these moves a client may make (only cancelling from pending_payment or on_hold) is the service's rule.
 */
export const orderTransitions = defineTransitions<OrderStatus>({
  [OrderStatus.PENDING_PAYMENT]: [OrderStatus.PROCESSING, OrderStatus.ON_HOLD, OrderStatus.CANCELLED],
  [OrderStatus.PROCESSING]: [OrderStatus.IN_REVIEW, OrderStatus.COMPLETED, OrderStatus.ON_HOLD, OrderStatus.CANCELLED],
  [OrderStatus.IN_REVIEW]: [OrderStatus.COMPLETED, OrderStatus.ON_HOLD, OrderStatus.CANCELLED],
  [OrderStatus.ON_HOLD]: [OrderStatus.PENDING_PAYMENT, OrderStatus.PROCESSING, OrderStatus.IN_REVIEW, OrderStatus.CANCELLED],
  [OrderStatus.COMPLETED]: [],
  [OrderStatus.CANCELLED]: [],
});

/** The client may cancel only these (contract 4.12). */
export const CLIENT_CANCELLABLE: readonly OrderStatus[] = [OrderStatus.PENDING_PAYMENT, OrderStatus.ON_HOLD];
