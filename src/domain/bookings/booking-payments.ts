import type { Mailer } from '../../providers/mail/mailer';
import { languagePairName } from '../catalog/language-names';
import { formatMoney } from '../shared/money';
import { lifecycleHolder } from '../payments/lifecycle-holder';
import type { PaymentOwners } from '../payments/payment.service';
import { refusalMessage } from '../lifecycle/state-machine';
import { Booking } from './booking.entity';
import type { BookingLifecycle } from './booking.lifecycle';
import { bookingTime } from '../shared/booking-time';

/** Bookings as what payments pay for (D12, D29): paid, a booking is confirmed (the `Booking` schema's statuses), unless its start passed. */
export function bookingPayments(deps: { lifecycle: BookingLifecycle; mailer: Mailer }): PaymentOwners {
  return {
    async lockHolder(em, id, paymentId) {
      const booking = await deps.lifecycle.lock(em, { id });
      if (!booking) return null;
      const label = `Booking ${booking.number}`;
      return lifecycleHolder(
        deps.lifecycle,
        booking,
        { label, mailer: deps.mailer },
        booking.payment?.id === paymentId,
      );
    },

    /** The booking's hours at its rate (the `Booking` schema), and why it can no longer be paid once its start passed. */
    async summarize(em, id, paymentId) {
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
      };
    },
  };
}
