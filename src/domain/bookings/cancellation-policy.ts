import { formatMoney } from '../shared/money';
import type { Booking } from './booking.entity';
import { UNPAID } from './booking.states';

/**
 * D32: what a staff cancel of a paid booking gives back, by the hours left before its start, computed in UTC: 48 or
 * more, all of it; 24 to 48, half; under 24, nothing. A requested or awaiting-payment booking cancels free (the
 * contract). Published in `GET /pricing` (`booking_policy`); staff may waive the fee.
 */
export const BOOKING_POLICY = {
  freeCancellationStatuses: [...UNPAID],
  tiers: [
    { hoursBeforeStartAtLeast: 48, refundPercent: 100 },
    { hoursBeforeStartAtLeast: 24, refundPercent: 50 },
    { hoursBeforeStartAtLeast: 0, refundPercent: 0 },
  ],
  waivableByStaff: true,
} as const;

export type BookingPolicy = typeof BOOKING_POLICY;

/** What a cancel keeps of what is left of a payment, and why, for the e-mail and the audit (D32). */
export interface CancellationFee {
  feeCents: number;
  refundCents: number;
  currency: string;
  refundPercent: number;
  hoursBeforeStart: number;
  waived: boolean;
  /** One sentence for the account: the fee, or that it was waived, and the tier that set it. */
  note: string;
}

const HOUR_MS = 3600_000;

/**
 * The fee of cancelling `booking` now (`Date.now()`, which a test may hold still) out of `leftCents` still kept of its
 * payment: the first tier whose hours the time left reaches; the refund rounds to the cent in the client's favour.
 */
export function cancellationFee(
  booking: Pick<Booking, 'scheduledAt'>,
  leftCents: number,
  currency: string,
  waived: boolean,
): CancellationFee {
  const hoursBeforeStart = Math.max(0, (booking.scheduledAt.getTime() - Date.now()) / HOUR_MS);
  const tier = BOOKING_POLICY.tiers.find((t) => hoursBeforeStart >= t.hoursBeforeStartAtLeast)!;
  const refundPercent = waived ? 100 : tier.refundPercent;
  const refundCents = Math.ceil((leftCents * refundPercent) / 100);
  const feeCents = leftCents - refundCents;
  const when = `${Math.floor(hoursBeforeStart)} h ${Math.floor((hoursBeforeStart % 1) * 60)} min before the start`;
  const fee = formatMoney(leftCents - Math.ceil((leftCents * tier.refundPercent) / 100), currency);
  const note =
    waived && tier.refundPercent < 100
      ? `The cancellation fee of ${fee} (cancelled ${when}) was waived.`
      : feeCents > 0
        ? `Cancelled ${when}, the booking policy keeps a cancellation fee of ${fee} (${100 - refundPercent}% of what was paid).`
        : `Cancelled ${when}: no cancellation fee.`;
  return { feeCents, refundCents, currency, refundPercent, hoursBeforeStart, waived, note };
}
