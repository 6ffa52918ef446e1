import type { Mailer } from '../../providers/mail/mailer';
import type { BookingActivity } from '../bookings/booking-activity';
import { BookingStatus } from '../bookings/booking.entity';
import { CONFIRM_AVAILABILITY, EXPIRED, REPLACE_INTERPRETER, type BookingEvent } from '../bookings/booking.lifecycle';
import { cancellationTerms } from '../bookings/cancellation-policy';
import { accountOf } from '../identity/account-of';
import type { Subscriber } from '../shared/event-hub';
import { bookingTime } from '../shared/booking-time';
import { bookingAvailabilityEmail, bookingExpiredEmail, bookingOvertimeEmail, onHoldEmail } from './messages';
import { tellStaffCancel } from './staff-cancel-mail';
import { bookingRescheduledEmail, interpreterChangedEmail } from './staff-action-messages';

/**
 * An interpreter confirmed (its payment link, D12, D29) or replaced (D32), a hold, a staff cancel or an expiry (D29)
 * tells the account: a subscriber of the booking lifecycle's events, run in the moving transaction
 * (docs/architecture.md "Domain events").
 */
export function tellAccountOfBooking(mailer: Mailer): Subscriber<BookingEvent> {
  return async (em, { kind, row: booking, to, cause, details }) => {
    if (kind === 'recorded' && cause.action === REPLACE_INTERPRETER) {
      const before = details?.before as { interpreter_id: string | null; name: string | null } | undefined;
      // The same interpreter put on record again changes nothing the client knows.
      if (before?.interpreter_id !== booking.interpreter?.id) {
        const account = await accountOf(em, booking);
        await mailer.send(
          em,
          interpreterChangedEmail(account, booking, booking.interpreterName!, before?.name ?? null),
        );
      }
    }
    if (kind !== 'moved') return;
    if (to === BookingStatus.AWAITING_PAYMENT && cause.action === CONFIRM_AVAILABILITY) {
      const link = booking.payment!.approvalUrl!;
      await mailer.send(
        em,
        bookingAvailabilityEmail(await accountOf(em, booking), booking, link, cancellationTerms(booking)),
      );
    } else if (to === BookingStatus.ON_HOLD) {
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

/** A reschedule shows the new time beside the old one (D28); overtime billed asks for it at its link (D32). */
export function tellAccountOfBookingActivity(mailer: Mailer): Subscriber<BookingActivity> {
  return async (em, event) => {
    const { booking } = event;
    const account = await accountOf(em, booking);
    if (event.kind === 'rescheduled') {
      const previous = bookingTime(event.previousStart);
      await mailer.send(em, bookingRescheduledEmail(account, booking, previous, cancellationTerms(booking)));
    } else {
      await mailer.send(em, bookingOvertimeEmail(account, booking, event.overtime, event.payment.approvalUrl!));
    }
  };
}
