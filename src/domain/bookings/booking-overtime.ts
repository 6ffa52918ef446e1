import { ensureWithinMaximumTotal } from '../shared/money';
import type { BookingRead, OvertimePaymentRead } from './booking-read';
import { hoursOf, type Booking } from './booking.entity';

/** Overtime is billed by the half hour begun (D32). */
const HALF_HOUR = 50;

/**
 * D32: the hours a session took past those billed, rounded up to the half hour, at the booking's hourly rate; none
 * when it took no longer. `actual_hours` is where a price past the most one booking may cost is refused.
 */
export function overtimeOf(
  booking: Pick<Booking, 'billableHundredths' | 'unitPriceCents' | 'currency'>,
  actualHundredths: number,
): { overtimeHundredths: number; overtimeCents: number } | null {
  const rounded = Math.ceil(actualHundredths / HALF_HOUR) * HALF_HOUR;
  const overtimeHundredths = rounded - booking.billableHundredths;
  if (overtimeHundredths <= 0) return null;
  const overtimeCents = Math.round((overtimeHundredths * booking.unitPriceCents) / 100);
  ensureWithinMaximumTotal(overtimeCents, booking.currency, 'actual_hours');
  return { overtimeHundredths, overtimeCents };
}

/**
 * What both doors show as `payment.overtime` (D32): the hours, their price, the checkout and when it was paid; its
 * payment, whose receipt it links (D31).
 */
export interface OvertimeView {
  hours: number;
  amountCents: number;
  approvalUrl: string | null;
  paidAt: Date | null;
  /** What staff gave back of it (D30); 0 until then. */
  refundedCents: number;
  payment: OvertimePaymentRead | null;
}

export const overtimeView = (booking: BookingRead): OvertimeView | null =>
  booking.overtimeHundredths && booking.overtimeCents
    ? {
        hours: hoursOf(booking.overtimeHundredths),
        amountCents: booking.overtimeCents,
        approvalUrl: booking.overtimePayment?.approvalUrl ?? null,
        paidAt: booking.overtimePayment?.paidAt ?? null,
        refundedCents: booking.overtimePayment?.refundedCents ?? 0,
        payment: booking.overtimePayment,
      }
    : null;
