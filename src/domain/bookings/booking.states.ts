import { defineTransitions } from '../shared/state-machine';
import { BookingStatus } from './booking.entity';

/** Contract 3.2 and D12; holds return to the state they interrupted. */
export const bookingTransitions = defineTransitions<BookingStatus>({
  [BookingStatus.REQUESTED]: [BookingStatus.AWAITING_PAYMENT, BookingStatus.ON_HOLD, BookingStatus.CANCELLED],
  [BookingStatus.AWAITING_PAYMENT]: [BookingStatus.CONFIRMED, BookingStatus.ON_HOLD, BookingStatus.CANCELLED],
  [BookingStatus.CONFIRMED]: [BookingStatus.COMPLETED, BookingStatus.ON_HOLD, BookingStatus.CANCELLED],
  [BookingStatus.ON_HOLD]: [BookingStatus.REQUESTED, BookingStatus.AWAITING_PAYMENT, BookingStatus.CONFIRMED, BookingStatus.CANCELLED],
  [BookingStatus.COMPLETED]: [],
  [BookingStatus.CANCELLED]: [],
});

/** The client may cancel only before the booking is paid; confirmed bookings go through the operator (contract 3.2). */
export const CLIENT_CANCELLABLE: readonly BookingStatus[] = [BookingStatus.REQUESTED, BookingStatus.AWAITING_PAYMENT];

/** Not paid yet: what a client may cancel, and what is cancelled when its start passes (D29). */
export const UNPAID: readonly BookingStatus[] = CLIENT_CANCELLABLE;
