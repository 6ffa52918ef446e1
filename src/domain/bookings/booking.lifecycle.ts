import type { Mailer } from '../../providers/mail/mailer';
import type { AuditService } from '../audit/audit.service';
import { bookingExpiredEmail, onHoldEmail } from '../mail/messages';
import { accountOf } from '../identity/account-of';
import { tellStaffCancel } from '../payments/staff-cancel-notice';
import { Lifecycle } from '../lifecycle/lifecycle';
import { bookingTime } from '../shared/booking-time';
import { Booking, BookingStatus } from './booking.entity';
import { bookingTransitions, type BookingAction } from './booking.states';

export type BookingLifecycle = Lifecycle<BookingStatus, Booking, BookingAction>;

/** The action of the job that cancels an unpaid booking when its start passes (D29). */
export const EXPIRED = 'expire';

/** Every booking status change (the statuses of the OpenAPI `Booking` schema, D12, D26): the table and its rules in booking.states.ts; a hold, a staff cancel or an expiry (D29) tells the account. */
export function bookingLifecycle(deps: { audit: AuditService; mailer: Mailer }): BookingLifecycle {
  return new Lifecycle<BookingStatus, Booking, BookingAction>({
    entity: Booking,
    noun: 'booking',
    table: bookingTransitions,
    onHold: BookingStatus.ON_HOLD,
    completed: BookingStatus.COMPLETED,
    cancelled: BookingStatus.CANCELLED,
    payment: { awaiting: BookingStatus.AWAITING_PAYMENT, paid: BookingStatus.CONFIRMED },
    audit: deps.audit,
    async entered(em, booking, _from, cause) {
      if (booking.status === BookingStatus.ON_HOLD) {
        await deps.mailer.send(
          em,
          onHoldEmail(
            await accountOf(em, booking),
            `Booking ${booking.number}`,
            cause.reason ?? 'Staff will contact you.',
            `It starts at ${bookingTime(booking)}.`,
          ),
        );
      } else if (booking.status === BookingStatus.CANCELLED) {
        const when = `It was to start at ${bookingTime(booking)}.`;
        await tellStaffCancel(em, deps.mailer, booking, `Booking ${booking.number}`, cause, when);
      }
      if (booking.status === BookingStatus.CANCELLED && cause.action === EXPIRED)
        await deps.mailer.send(em, bookingExpiredEmail(await accountOf(em, booking), booking));
    },
  });
}
