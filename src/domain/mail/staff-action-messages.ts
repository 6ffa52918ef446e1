import type { OutgoingEmail } from '../../providers/mail/mailer';
import type { Account } from '../identity/account.entity';
import { bookingTime } from '../shared/booking-time';
import type { RefundAmount } from '../payments/cancel-refund';
import { formatMoney } from '../shared/money';

/** D28: staff cancelled an order or a booking; the account hears why, and whether and how much money goes back. */
export function staffCancelledEmail(
  account: Account,
  what: string,
  reason: string | undefined,
  refund: RefundAmount | null,
  /** The cancellation policy's word on a fee (D32). */
  fee?: string,
  /** When a booking was to start (D29). */
  when?: string,
): OutgoingEmail {
  return {
    kind: 'cancelled_by_staff',
    to: account.email,
    subject: `${what} was cancelled`,
    text: [
      `Hello ${account.name},`,
      '',
      `We cancelled ${what}${reason ? `: ${reason}` : '.'}`,
      ...(when ? [when] : []),
      '',
      ...(fee ? [fee, ''] : []),
      refund
        ? `${formatMoney(refund.amountCents, refund.currency)} of your payment is being refunded; you will get another message when the refund is made.`
        : fee
          ? 'Nothing of your payment is refunded.'
          : 'Nothing was paid for it, so nothing is refunded.',
    ].join('\n'),
  };
}

/** D28: a refund reached the provider; the account knows how much came back, and why when staff refunded without cancelling (D30). */
export function refundMadeEmail(account: Account, what: string, refund: RefundAmount, reason?: string): OutgoingEmail {
  return {
    kind: 'refund_made',
    to: account.email,
    subject: `${what}: ${formatMoney(refund.amountCents, refund.currency)} refunded`,
    text: [
      `Hello ${account.name},`,
      '',
      `We refunded ${formatMoney(refund.amountCents, refund.currency)} for ${what}. It can take a few days to show on your statement.`,
      ...(reason ? ['', `Why: ${reason}`] : []),
    ].join('\n'),
  };
}

/** D28: staff moved a booking; the account sees the new time beside the old one, and the deadlines it moved (D32). */
export function bookingRescheduledEmail(
  account: Account,
  booking: {
    number: string;
    scheduledAt: Date;
    scheduledOffsetMinutes: number;
    durationHundredths: number;
    totalCents: number;
    currency: string;
  },
  previousStart: string,
  terms: string,
): OutgoingEmail {
  return {
    kind: 'booking_rescheduled',
    to: account.email,
    subject: `Booking ${booking.number} was rescheduled`,
    text: [
      `Hello ${account.name},`,
      '',
      `Booking ${booking.number} now starts at ${bookingTime(booking)}, for ${booking.durationHundredths / 100} h at ${formatMoney(booking.totalCents, booking.currency)}.`,
      `It was to start at ${previousStart}.`,
      terms,
    ].join('\n'),
  };
}

/** D32: staff put another interpreter on record for a booking; the account hears who comes instead of whom. */
export function interpreterChangedEmail(
  account: Account,
  booking: { number: string; scheduledAt: Date; scheduledOffsetMinutes: number },
  interpreter: string,
  previous: string | null,
): OutgoingEmail {
  return {
    kind: 'interpreter_changed',
    to: account.email,
    subject: `Booking ${booking.number} has another interpreter`,
    text: [
      `Hello ${account.name},`,
      '',
      `${interpreter} is now the interpreter of booking ${booking.number}${previous ? `, in place of ${previous}` : ''}.`,
      `It starts at ${bookingTime(booking)}; nothing else about it changed.`,
    ].join('\n'),
  };
}
