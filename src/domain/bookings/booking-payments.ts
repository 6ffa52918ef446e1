import type { Mailer } from '../../providers/mail/mailer';
import { languagePairName } from '../catalog/language-names';
import { formatMoney } from '../shared/money';
import { lifecycleHolder } from '../payments/lifecycle-holder';
import type { PaymentHolder, PaymentOwners } from '../payments/payment.service';
import { refusalMessage } from '../lifecycle/state-machine';
import { Booking, hoursOf } from './booking.entity';
import type { EntityManager } from '@mikro-orm/core';
import type { CheckoutSummary } from '../payments/checkout-summary';
import { accountOf } from '../identity/account-of';
import { paymentReceiptEmail } from '../mail/messages';
import { refundMadeEmail } from '../mail/staff-action-messages';
import { PaymentStatus, type Payment } from '../payments/payment.entity';
import type { BookingLifecycle } from './booking.lifecycle';
import { bookingTime } from '../shared/booking-time';
import { cancellationTerms } from './cancellation-policy';

/** Bookings as what payments pay for (D12, D29): paid, a booking is confirmed (the `Booking` schema's statuses), unless its start passed. */
export function bookingPayments(deps: { lifecycle: BookingLifecycle; mailer: Mailer }): PaymentOwners {
  return {
    async lockHolder(em, id, paymentId) {
      const booking = await deps.lifecycle.lock(em, { id });
      if (!booking) return null;
      if (booking.overtimePayment?.id === paymentId) return overtimeHolder(deps, booking);
      const label = `Booking ${booking.number}`;
      return lifecycleHolder(
        deps.lifecycle,
        booking,
        { label, mailer: deps.mailer, terms: cancellationTerms(booking) },
        booking.payment?.id === paymentId,
      );
    },

    /** The booking's hours at its rate (the `Booking` schema), and why it can no longer be paid once its start passed. */
    async summarize(em, id, paymentId) {
      const overtime = await em.findOne(Booking, { id, overtimePayment: paymentId });
      if (overtime) return overtimeSummary(overtime);
      const booking = await em.findOne(Booking, { id, payment: paymentId });
      if (!booking) return null;
      const closed = deps.lifecycle.paymentRefusal(booking);
      return {
        kind: 'booking',
        id: booking.id,
        number: booking.number,
        lines: [
          {
            label: `Interpreter (${booking.mode.replace(/_/g, ' ')}), ${languagePairName(booking.sourceLanguage, booking.targetLanguage)}, ${bookingTime(booking)}, ${booking.billableHours} h at ${formatMoney(booking.unitPriceCents, booking.currency)}/h`,
            amountCents: booking.totalCents,
          },
        ],
        totalCents: booking.totalCents,
        currency: booking.currency,
        closedReason: closed === undefined ? null : refusalMessage(closed),
        terms: cancellationTerms(booking),
      };
    },
  };
}

/**
 * A completed booking as the holder of its overtime's payment (D32): it waits for it until it is captured, then
 * records it and sends the receipt (or, on terms, says it is on account, D31); money back is told as for any payment.
 * The booking's status does not move.
 */
function overtimeHolder(deps: { lifecycle: BookingLifecycle; mailer: Mailer }, booking: Booking): PaymentHolder {
  const label = `Overtime of booking ${booking.number}`;
  const audit = (em: EntityManager, action: string, payment: Payment, details: Record<string, unknown> = {}) =>
    deps.lifecycle.record(em, booking, booking.status, { actor: null, action }, { payment_id: payment.id, ...details });
  return {
    awaitingPayment:
      booking.overtimePayment?.status === PaymentStatus.CREATED ||
      booking.overtimePayment?.status === PaymentStatus.CAPTURING,
    closedReason: null,
    async paid(em, payment) {
      await audit(em, 'overtime_paid', payment, { amount_cents: payment.capturedCents });
      const hours = `${hoursOf(booking.overtimeHundredths ?? 0)} h past the ${booking.billableHours} h billed, at ${formatMoney(booking.unitPriceCents, booking.currency)}/h`;
      await deps.mailer.send(em, paymentReceiptEmail(await accountOf(em, booking), label, payment, hours));
    },
    async reversed(em, payment, reason) {
      await audit(em, 'overtime_reversed', payment, { reason });
    },
    async refundingLateCapture(em, payment) {
      await audit(em, 'late_capture_refunded', payment, { amount_cents: payment.capturedCents });
    },
    async refunded(em, payment, amountCents, reason) {
      await deps.mailer.send(
        em,
        refundMadeEmail(await accountOf(em, booking), label, { amountCents, currency: payment.currency }, reason),
      );
    },
  };
}

/** What the overtime's checkout page shows: the hours past those billed at the booking's rate (D32). */
function overtimeSummary(booking: Booking): CheckoutSummary {
  const hours = hoursOf(booking.overtimeHundredths ?? 0);
  return {
    kind: 'booking',
    id: booking.id,
    number: booking.number,
    lines: [
      {
        label: `Overtime of the interpreter (${languagePairName(booking.sourceLanguage, booking.targetLanguage)}, ${bookingTime(booking)}): ${hours} h at ${formatMoney(booking.unitPriceCents, booking.currency)}/h`,
        amountCents: booking.overtimeCents ?? 0,
      },
    ],
    totalCents: booking.overtimeCents ?? 0,
    currency: booking.currency,
    closedReason: null,
  };
}
