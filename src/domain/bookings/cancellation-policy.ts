import { zonedTime } from '../shared/booking-time';
import { formatMoney } from '../shared/money';
import { BookingStatus, type Booking } from './booking.entity';
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

type Tier = BookingPolicy['tiers'][number];
type BookingTimes = Pick<Booking, 'scheduledAt' | 'scheduledOffsetMinutes'>;

/** The last moment a tier applies: its hours before the start, counted in UTC (at it exactly, the tier still holds). */
const lastMomentOf = (booking: BookingTimes, tier: Tier): Date =>
  new Date(booking.scheduledAt.getTime() - tier.hoursBeforeStartAtLeast * HOUR_MS);

/** That moment as e-mails and pages show it: in the client's offset, UTC beside it (D29). */
const deadline = (booking: BookingTimes, tier: Tier): string =>
  zonedTime(lastMomentOf(booking, tier), booking.scheduledOffsetMinutes);

/** The deadlines of a booking a staff cancel would keep a fee of (D32), in UTC: the last moments of full and half refunds. */
export interface CancellationDeadlines {
  fullRefundUntil: Date;
  halfRefundUntil: Date;
  /** The same as the e-mails write them, in the client's offset with UTC beside it (`cancellationTerms`). */
  terms: string;
}

type PolicyState = Pick<Booking, 'status' | 'heldFrom'>;

/**
 * Whether a cancel now falls under the policy: paid and not finished, i.e. confirmed, or held from confirmed. Unpaid
 * bookings cancel free (the contract), and a completed or cancelled one has nothing left to cancel.
 */
export const underPolicy = ({ status, heldFrom }: PolicyState): boolean =>
  (status === BookingStatus.ON_HOLD ? heldFrom : status) === BookingStatus.CONFIRMED;

/** The deadlines a client reads on its booking (D32); null while it cancels free or is finished. */
export function cancellationDeadlines(booking: BookingTimes & PolicyState): CancellationDeadlines | null {
  if (!underPolicy(booking)) return null;
  const [full, half] = BOOKING_POLICY.tiers;
  return {
    fullRefundUntil: lastMomentOf(booking, full),
    halfRefundUntil: lastMomentOf(booking, half),
    terms: cancellationTerms(booking),
  };
}

const refunded = (percent: number): string =>
  percent === 100 ? 'refunded in full' : percent === 0 ? 'nothing refunded' : `${percent}% refunded`;

/**
 * The policy as the moments it changes at, in the client's offset with UTC (D29, D32), for the e-mails and pages that
 * show a booking: "Cancellation once paid: refunded in full by ...; 50% refunded by ...; nothing refunded after that."
 */
export function cancellationTerms(booking: BookingTimes): string {
  const { tiers } = BOOKING_POLICY;
  const by = tiers.slice(0, -1).map((tier) => `${refunded(tier.refundPercent)} by ${deadline(booking, tier)}`);
  return `Cancellation once paid: ${by.join('; ')}; ${refunded(tiers[tiers.length - 1].refundPercent)} after that.`;
}

/**
 * The fee of cancelling `booking` now (`Date.now()`, which a test may hold still) out of `leftCents` still kept of its
 * payment: the first tier whose hours the time left reaches; the refund rounds to the cent in the client's favour. The
 * note names the moment of the cancel and the deadline it came after, in the client's offset with UTC (D29).
 */
export function cancellationFee(
  booking: BookingTimes,
  leftCents: number,
  currency: string,
  waived: boolean,
): CancellationFee {
  const hoursBeforeStart = Math.max(0, (booking.scheduledAt.getTime() - Date.now()) / HOUR_MS);
  const { tiers } = BOOKING_POLICY;
  const index = tiers.findIndex((t) => hoursBeforeStart >= t.hoursBeforeStartAtLeast);
  const tier = tiers[index];
  const refundPercent = waived ? 100 : tier.refundPercent;
  const refundCents = Math.ceil((leftCents * refundPercent) / 100);
  const feeCents = leftCents - refundCents;
  const at = `cancelled ${zonedTime(new Date(Date.now()), booking.scheduledOffsetMinutes)}`;
  // The deadline this cancel missed: the end of the tier before its own (none for the first).
  const missed = index > 0 ? `, after the deadline of ${deadline(booking, tiers[index - 1])}` : '';
  const fee = formatMoney(leftCents - Math.ceil((leftCents * tier.refundPercent) / 100), currency);
  const note =
    waived && tier.refundPercent < 100
      ? `The cancellation fee of ${fee} (${at}${missed}) was waived.`
      : feeCents > 0
        ? `The booking was ${at}${missed}: the booking policy keeps a cancellation fee of ${fee} (${100 - refundPercent}% of what was paid).`
        : `The booking was ${at}, by the deadline of ${deadline(booking, tiers[0])}: no cancellation fee.`;
  return { feeCents, refundCents, currency, refundPercent, hoursBeforeStart, waived, note };
}
