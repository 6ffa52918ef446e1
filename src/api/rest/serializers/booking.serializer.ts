import type { ReceiptService } from '../../../domain/billing/receipts';
import type { BookingRead } from '../../../domain/bookings/booking-read';
import { hoursOf } from '../../../domain/bookings/booking.entity';
import { formatOptionalTimestamp, formatTimestamp } from '../../format';
import { paymentOrPending } from '../../../domain/payments/payment-read';
import { serializePayment } from './payment.serializer';
import { serializePlacedBy } from './placed-by.serializer';
import { overtimeView } from '../../../domain/bookings/booking-overtime';
import { cancellationDeadlines } from '../../../domain/bookings/cancellation-policy';
import type { BookingJson } from '../responses/booking.response';

/** `cancellation_deadlines` (D32): null while the booking cancels free or is finished. */
function serializeDeadlines(booking: BookingRead) {
  const deadlines = cancellationDeadlines(booking);
  return (
    deadlines && {
      full_refund_until: formatTimestamp(deadlines.fullRefundUntil),
      half_refund_until: formatTimestamp(deadlines.halfRefundUntil),
      terms: deadlines.terms,
    }
  );
}

/** `payment.overtime` (D32): null until a completion records hours past those billed. */
function serializeOvertime(booking: BookingRead, receipts: ReceiptService) {
  const overtime = overtimeView(booking);
  return (
    overtime && {
      hours: overtime.hours,
      amount_cents: overtime.amountCents,
      approval_url: overtime.approvalUrl,
      paid_at: formatOptionalTimestamp(overtime.paidAt),
      receipt_url: overtime.payment && receipts.receiptUrl(overtime.payment),
      refunded_cents: overtime.refundedCents,
    }
  );
}

/** A booking as `getBooking` answers it, with D12's echo; `payment` shows the provider and nulls until staff create the checkout. */
export function serializeBooking(booking: BookingRead, provider: string, receipts: ReceiptService): BookingJson {
  const payment = paymentOrPending(booking.payment, provider);
  return {
    id: booking.id,
    number: booking.number,
    status: booking.status,
    mode: booking.mode,
    setting: booking.setting,
    source_language: booking.sourceLanguage,
    target_language: booking.targetLanguage,
    scheduled_at: formatTimestamp(booking.scheduledAt),
    duration_hours: hoursOf(booking.durationHundredths),
    billable_hours: hoursOf(booking.billableHundredths),
    unit_price_cents: booking.unitPriceCents,
    total_cents: booking.totalCents,
    currency: booking.currency,
    payment: {
      ...serializePayment(payment, receipts.receiptUrl(payment)),
      overtime: serializeOvertime(booking, receipts),
    },
    location: booking.location,
    video_platform_notes: booking.videoPlatformNotes,
    reference: booking.reference,
    interpreter_name: booking.interpreterName,
    interpreter: booking.interpreter && {
      name: booking.interpreter.name,
      qualifications: booking.interpreter.qualifications,
    },
    hold_reason: booking.holdReason,
    cancellation_deadlines: serializeDeadlines(booking),
    completed_at: formatOptionalTimestamp(booking.completedAt),
    cancelled_at: formatOptionalTimestamp(booking.cancelledAt),
    created_at: formatTimestamp(booking.createdAt),
    updated_at: formatTimestamp(booking.updatedAt),
    placed_by: serializePlacedBy(booking.placedBy),
  };
}
