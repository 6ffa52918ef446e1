import { defineTransitions } from '../shared/state-machine';
import { PaymentStatus } from './payment.entity';

/**
 * D26: a capture or a refund is recorded (capturing, refunding) before the provider is called, and its answer
 * applied in a later transaction. A declined capture goes back to created; a capture that lands on a withdrawn
 * checkout is recorded and refunded; a refund or reversal made at the provider ends in refunded once all of the
 * captured money went back (a refund in part leaves it captured). A refund the provider refuses for good stops in
 * refund_refused, never asked again; money later returned at the provider (by staff, by hand) still settles it.
 */
export const paymentTransitions = defineTransitions<PaymentStatus>({
  [PaymentStatus.CREATED]: [PaymentStatus.CAPTURING, PaymentStatus.CAPTURED, PaymentStatus.VOIDED],
  [PaymentStatus.CAPTURING]: [PaymentStatus.CREATED, PaymentStatus.CAPTURED],
  [PaymentStatus.CAPTURED]: [PaymentStatus.REFUNDING, PaymentStatus.REFUNDED],
  [PaymentStatus.REFUNDING]: [PaymentStatus.REFUNDED, PaymentStatus.REFUND_REFUSED],
  [PaymentStatus.REFUND_REFUSED]: [PaymentStatus.REFUNDED],
  [PaymentStatus.REFUNDED]: [],
  [PaymentStatus.VOIDED]: [PaymentStatus.CAPTURED],
});
