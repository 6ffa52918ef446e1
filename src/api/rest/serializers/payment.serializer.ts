import type { PaymentRead } from '../../../domain/payments/payment-read';
import { formatOptionalTimestamp } from '../../format';

/** The `payment` object of `getOrder` and `getBooking` (D9), shared by orders and bookings. */
export const serializePayment = (payment: PaymentRead) => ({
  provider: payment.provider,
  provider_order_id: payment.providerOrderId,
  approval_url: payment.approvalUrl,
  paid_at: formatOptionalTimestamp(payment.paidAt),
  refunded_at: formatOptionalTimestamp(payment.refundedAt),
  refunded_cents: payment.refundedCents,
});
