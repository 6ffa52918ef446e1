import { defineTransitions } from '../lifecycle/state-machine';
import { PaymentStatus, type Payment } from './payment.entity';

/** What the holder of a payment does to it in place: cancels (the payment is settled), or renews its checkout (D29). */
export type PaymentAction = 'cancel' | 'renew';

/** A capture under way decides first: a cancel or a renewal waits for its answer (D26). */
const BEING_PROCESSED = 'The payment is being processed.';

/**
 * D26: a capture or a refund is recorded (capturing, refunding) before the provider is called, and its answer
 * applied in a later transaction. A declined capture goes back to created; a capture that lands on a withdrawn
 * checkout is recorded and refunded; a refund or reversal made at the provider ends in refunded once all of the
 * captured money went back (a refund in part leaves it captured). A refund the provider refuses for good stops in
 * refund_refused, never asked again; money later returned at the provider (by staff, by hand) still settles it.
 */
export const paymentTransitions = defineTransitions<PaymentStatus, Payment, PaymentAction>({
  initial: PaymentStatus.CREATED,
  moves: {
    [PaymentStatus.CREATED]: [PaymentStatus.CAPTURING, PaymentStatus.CAPTURED, PaymentStatus.VOIDED],
    [PaymentStatus.CAPTURING]: [PaymentStatus.CREATED, PaymentStatus.CAPTURED],
    [PaymentStatus.CAPTURED]: [PaymentStatus.REFUNDING, PaymentStatus.REFUNDED],
    [PaymentStatus.REFUNDING]: [PaymentStatus.REFUNDED, PaymentStatus.REFUND_REFUSED],
    [PaymentStatus.REFUND_REFUSED]: [PaymentStatus.REFUNDED],
    [PaymentStatus.REFUNDED]: [],
    [PaymentStatus.VOIDED]: [PaymentStatus.CAPTURED],
  },
  actions: {
    cancel: (payment) => (payment.status === PaymentStatus.CAPTURING ? BEING_PROCESSED : undefined),
    // Only an open checkout is replaced: one paid, or withdrawn, stays as it is.
    renew: (payment) => {
      if (payment.status === PaymentStatus.CAPTURING) return BEING_PROCESSED;
      if (payment.status !== PaymentStatus.CREATED)
        return { field: 'payment', message: 'The checkout can no longer be renewed.' };
      return undefined;
    },
  },
});
