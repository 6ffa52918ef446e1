import { BookingStatus } from '../../src/domain/bookings/booking.entity';
import { CLIENT_CANCELLABLE, bookingTransitions } from '../../src/domain/bookings/booking.states';
import { canTransition } from '../../src/domain/shared/state-machine';

const { REQUESTED, AWAITING_PAYMENT, CONFIRMED, COMPLETED, ON_HOLD, CANCELLED } = BookingStatus;

/** Contract 3.2 and D12, pair by pair: every move not listed is refused. */
const allowed: [BookingStatus, BookingStatus][] = [
  [REQUESTED, AWAITING_PAYMENT],
  [REQUESTED, ON_HOLD],
  [REQUESTED, CANCELLED],
  [AWAITING_PAYMENT, CONFIRMED],
  [AWAITING_PAYMENT, ON_HOLD],
  [AWAITING_PAYMENT, CANCELLED],
  [CONFIRMED, COMPLETED],
  [CONFIRMED, ON_HOLD],
  [CONFIRMED, CANCELLED],
  [ON_HOLD, REQUESTED],
  [ON_HOLD, AWAITING_PAYMENT],
  [ON_HOLD, CONFIRMED],
  [ON_HOLD, CANCELLED],
];

const all = Object.values(BookingStatus);

describe('booking transition table', () => {
  it.each(all.flatMap((from) => all.map((to) => [from, to] as const)))('%s -> %s', (from, to) => {
    expect(canTransition(bookingTransitions, from, to)).toBe(allowed.some(([a, b]) => a === from && b === to));
  });

  it('lets clients cancel only before payment (contract 4.16)', () => {
    expect([...CLIENT_CANCELLABLE].sort()).toEqual([AWAITING_PAYMENT, REQUESTED].sort());
  });
});
