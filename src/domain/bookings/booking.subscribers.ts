import type { Mailer } from '../../providers/mail/mailer';
import { accountOf } from '../identity/account-of';
import { bookingExpiredEmail, onHoldEmail } from '../mail/messages';
import { tellStaffCancel } from '../mail/staff-cancel-mail';
import type { Subscriber } from '../shared/event-hub';
import { bookingTime } from '../shared/booking-time';
import { BookingStatus } from './booking.entity';
import { EXPIRED, type BookingEvent } from './booking.lifecycle';

/**
 * A hold, a staff cancel or an expiry (D29) tells the account: a subscriber of the booking lifecycle's events, run
 * in the moving transaction (docs/architecture.md "Domain events").
 */
export function tellAccountOfBooking(mailer: Mailer): Subscriber<BookingEvent> {
  return async (em, { kind, row: booking, to, cause }) => {
    if (kind !== 'moved') return;
    if (to === BookingStatus.ON_HOLD) {
      const account = await accountOf(em, booking);
      const reason = cause.reason ?? 'Staff will contact you.';
      await mailer.send(
        em,
        onHoldEmail(account, `Booking ${booking.number}`, reason, `It starts at ${bookingTime(booking)}.`),
      );
    } else if (to === BookingStatus.CANCELLED) {
      const when = `It was to start at ${bookingTime(booking)}.`;
      await tellStaffCancel(em, mailer, booking, `Booking ${booking.number}`, cause, when);
      if (cause.action === EXPIRED) await mailer.send(em, bookingExpiredEmail(await accountOf(em, booking), booking));
    }
  };
}
