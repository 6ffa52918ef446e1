import type { PaymentRead } from '../../../domain/payments/payment-read';
import { formatOptionalTimestamp } from '../../format';
import type { PaymentJson } from '../responses/payment.response';

/**
 * The `payment` object of `getOrder` and `getBooking` (D9), shared by orders and bookings; `receiptUrl` is the receipt's
 * stable link (D31), null without one.
 */
export const serializePayment = (payment: PaymentRead, receiptUrl: string | null): PaymentJson => ({
  provider: payment.provider,
  provider_order_id: payment.providerOrderId,
  approval_url: payment.approvalUrl,
  paid_at: formatOptionalTimestamp(payment.paidAt),
  refunded_at: formatOptionalTimestamp(payment.refundedAt),
  refunded_cents: payment.refundedCents,
  receipt_url: receiptUrl,
});
