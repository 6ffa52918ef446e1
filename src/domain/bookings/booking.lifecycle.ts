import { Lifecycle, type LifecycleEvent } from '../lifecycle/lifecycle';
import { Booking, BookingStatus } from './booking.entity';
import { bookingTransitions, type BookingAction } from './booking.states';

export type BookingLifecycle = Lifecycle<BookingStatus, Booking, BookingAction>;
export type BookingEvent = LifecycleEvent<BookingStatus, Booking>;

/** The action of the job that cancels an unpaid booking when its start passes (D29). */
export const EXPIRED = 'expire';

/** The action of staff confirming an interpreter, which moves the booking to wait for its payment (D12). */
export const CONFIRM_AVAILABILITY = 'confirm_availability';

/** The action of staff putting another interpreter on record for an open booking (D32); its state does not change. */
export const REPLACE_INTERPRETER = 'replace_interpreter';

/**
 * Every booking status change (the statuses of the OpenAPI `Booking` schema, D12, D26): the table and its rules in
 * booking.states.ts. What entering a state does is its events' subscribers' (the mail area's
 * `booking-mail.subscribers.ts`), wired in `src/services.ts`.
 */
export function bookingLifecycle(): BookingLifecycle {
  return new Lifecycle<BookingStatus, Booking, BookingAction>({
    entity: Booking,
    noun: 'booking',
    table: bookingTransitions,
    onHold: BookingStatus.ON_HOLD,
    completed: BookingStatus.COMPLETED,
    cancelled: BookingStatus.CANCELLED,
    payment: { awaiting: BookingStatus.AWAITING_PAYMENT, paid: BookingStatus.CONFIRMED },
  });
}
