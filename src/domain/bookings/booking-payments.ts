import { languagePairName } from '../catalog/language-names';
import { formatMoney } from '../shared/money';
import { lifecycleHolder } from '../payments/lifecycle-holder';
import type { PaymentHolder, PaymentOwners } from '../payments/payment.service';
import { refusalMessage } from '../lifecycle/state-machine';
import { Booking, hoursOf } from './booking.entity';
import type { EntityManager } from '@mikro-orm/core';
import type { CheckoutSummary } from '../payments/checkout-summary';
import { PaymentStatus, type Payment } from '../payments/payment.entity';
import type { PaidFor, PaymentActivity } from '../payments/payment-activity';
import type { EventHub } from '../shared/event-hub';
import type { BookingLifecycle } from './booking.lifecycle';
import { bookingTime } from '../shared/booking-time';
import { cancellationTerms } from './cancellation-policy';

/** How bookings' payments are held: through their lifecycle, what happens to the money raised on `events`. */
type BookingPaymentDeps = { lifecycle: BookingLifecycle; events: EventHub<PaymentActivity> };

/** Bookings as what payments pay for (D12, D29): paid, a booking is confirmed (the `Booking` schema's statuses), unless its start passed. */
export function bookingPayments(deps: BookingPaymentDeps): PaymentOwners {
  return {
    async lockHolder(em, id, paymentId) {
      const booking = await deps.lifecycle.lock(em, { id });
      if (!booking) return null;
      if (booking.overtimePayment?.id === paymentId) return overtimeHolder(deps, booking);
      const label = `Booking ${booking.number}`;
      return lifecycleHolder(
        deps.lifecycle,
        booking,
        { label, events: deps.events, terms: cancellationTerms(booking) },
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
 * records it and raises it received, for the receipt (or, on terms, the word that it is on account, D31); money back
 * is raised as for any payment. The booking's status does not move.
 */
function overtimeHolder(deps: BookingPaymentDeps, booking: Booking): PaymentHolder {
  const paidFor: PaidFor = {
    row: booking,
    label: `Overtime of booking ${booking.number}`,
    detail: `${hoursOf(booking.overtimeHundredths ?? 0)} h past the ${booking.billableHours} h billed, at ${formatMoney(booking.unitPriceCents, booking.currency)}/h`,
  };
  const audit = (em: EntityManager, action: string, payment: Payment, details: Record<string, unknown> = {}) =>
    deps.lifecycle.record(em, booking, booking.status, { actor: null, action }, { payment_id: payment.id, ...details });
  return {
    awaitingPayment:
      booking.overtimePayment?.status === PaymentStatus.CREATED ||
      booking.overtimePayment?.status === PaymentStatus.CAPTURING,
    closedReason: null,
    async paid(em, payment) {
      await audit(em, 'overtime_paid', payment, { amount_cents: payment.capturedCents });
      await deps.events.raise(em, { kind: 'received', paidFor, payment });
    },
    async reversed(em, payment, reason) {
      await audit(em, 'overtime_reversed', payment, { reason });
    },
    async refundingLateCapture(em, payment) {
      await audit(em, 'late_capture_refunded', payment, { amount_cents: payment.capturedCents });
    },
    async refunded(em, payment, amountCents, reason) {
      await deps.events.raise(em, { kind: 'refunded', paidFor, payment, amountCents, reason });
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
