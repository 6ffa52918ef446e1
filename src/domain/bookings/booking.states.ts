import { cannot, defineTransitions, type ActionRule } from '../lifecycle/state-machine';
import { BookingStatus, type Booking } from './booking.entity';
import { bookingTime } from '../shared/booking-time';

/** Not paid yet: what a client may cancel (`cancelBooking`), and what is cancelled when its start passes (D29). */
export const UNPAID: readonly BookingStatus[] = [BookingStatus.REQUESTED, BookingStatus.AWAITING_PAYMENT];

/** What may be done to a booking in place, without moving it. */
export type BookingAction = 'assign_interpreter' | 'reschedule' | 'change_duration';

/** D29: once its start passes, a booking is neither confirmed nor paid. */
const started = (booking: Booking, what: 'confirmed' | 'paid') => ({
  field: 'scheduled_at',
  message: `The booking's start (${bookingTime(booking)}) has passed: it can no longer be ${what}.`,
});

/** Finished bookings keep their time and their interpreter: there is nothing left to arrange. */
const whileOpen =
  (describe: string): ActionRule<Booking> =>
  (booking) =>
    bookingTransitions.terminal.includes(booking.status) ? cannot(describe, booking.status) : undefined;

/**
 * The statuses of the OpenAPI `Booking` schema, D12 and D29; holds return to the state they interrupted. The guard says who may make which move and
 * when, the actions what staff may change in which state (D28).
 */
export const bookingTransitions = defineTransitions<BookingStatus, Booking, BookingAction>({
  initial: BookingStatus.REQUESTED,
  moves: {
    [BookingStatus.REQUESTED]: [BookingStatus.AWAITING_PAYMENT, BookingStatus.ON_HOLD, BookingStatus.CANCELLED],
    [BookingStatus.AWAITING_PAYMENT]: [BookingStatus.CONFIRMED, BookingStatus.ON_HOLD, BookingStatus.CANCELLED],
    [BookingStatus.CONFIRMED]: [BookingStatus.COMPLETED, BookingStatus.ON_HOLD, BookingStatus.CANCELLED],
    [BookingStatus.ON_HOLD]: [
      BookingStatus.REQUESTED,
      BookingStatus.AWAITING_PAYMENT,
      BookingStatus.CONFIRMED,
      BookingStatus.CANCELLED,
    ],
    [BookingStatus.COMPLETED]: [],
    [BookingStatus.CANCELLED]: [],
  },
  guard(from, to, booking, { actor, at }) {
    if (to === BookingStatus.CANCELLED) {
      // The client cancels only before payment; confirmed bookings go through the operator (`cancelBooking`).
      if (actor?.kind === 'account' && !UNPAID.includes(from)) return cannot('cancel the booking', from);
      // The system cancels only an unpaid booking (held or not) whose start passed: the expiry sweep (D29).
      if (actor === null && (!UNPAID.includes(booking.heldFrom ?? from) || !booking.hasStarted(at)))
        return 'The booking is no longer due to expire.';
    }
    if (from === BookingStatus.REQUESTED && to === BookingStatus.AWAITING_PAYMENT && booking.hasStarted(at))
      return started(booking, 'confirmed');
    if (from === BookingStatus.AWAITING_PAYMENT && to === BookingStatus.CONFIRMED && booking.hasStarted(at))
      return started(booking, 'paid');
    // The session took place: only once its start has passed (D29).
    if (from === BookingStatus.CONFIRMED && to === BookingStatus.COMPLETED && !booking.hasStarted(at)) {
      return {
        field: 'scheduled_at',
        message: `The booking cannot be completed before its start (${bookingTime(booking)}).`,
      };
    }
    return undefined;
  },
  actions: {
    assign_interpreter: whileOpen('assign an interpreter'),
    reschedule: whileOpen('reschedule the booking'),
    // Once a checkout exists its amount is fixed: the duration, and with it the price, changes only before (D28).
    change_duration: (booking) =>
      booking.status === BookingStatus.REQUESTED
        ? undefined
        : {
            field: 'duration_hours',
            message:
              'The duration changes only before payment is asked for: cancel and book again, or keep the duration.',
          },
  },
});
