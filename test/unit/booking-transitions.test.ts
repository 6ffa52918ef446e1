import { Booking, BookingStatus } from '../../src/domain/bookings/booking.entity';
import { bookingTransitions, UNPAID, type BookingAction } from '../../src/domain/bookings/booking.states';
import { CLIENT, everyPair, reachable, STAFF, SYSTEM } from '../helpers/transitions';

const { REQUESTED, AWAITING_PAYMENT, CONFIRMED, COMPLETED, ON_HOLD, CANCELLED } = BookingStatus;
const PAST = new Date('2020-03-04T09:30:00Z');
const FUTURE = new Date('2999-03-04T09:30:00Z');
const booking = (status: BookingStatus, fields: Partial<Booking> = {}) =>
  Object.assign(new Booking(), { status, scheduledAt: FUTURE, scheduledOffsetMinutes: 0, heldFrom: null, ...fields });

/** The Booking statuses and D12, written out here so that a change to the table has to change this list too. */
const MOVES = [
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
] as const;

describe('the booking transition table', () => {
  it('has every booking status, starts in requested and reaches every status from there', () => {
    expect([...bookingTransitions.states].sort()).toEqual(Object.values(BookingStatus).sort());
    expect(bookingTransitions.initial).toBe(REQUESTED);
    expect(reachable(bookingTransitions).sort()).toEqual(Object.values(BookingStatus).sort());
  });

  it.each(everyPair(bookingTransitions, MOVES))('$from -> $to is allowed: $allowed', ({ from, to, allowed }) => {
    expect(bookingTransitions.allows(from, to)).toBe(allowed);
    const refusal = bookingTransitions.refusal(from, to, booking(from), STAFF, 'move the booking');
    // Staff completing before the start is the guard's refusal, tested below; every other allowed move passes.
    if (from === CONFIRMED && to === COMPLETED) expect(refusal).toMatchObject({ field: 'scheduled_at' });
    else expect(refusal).toBe(allowed ? undefined : `Cannot move the booking while the status is ${from}.`);
  });

  it('has requested and awaiting_payment as the statuses before payment, and completed and cancelled as finished', () => {
    expect([...UNPAID].sort()).toEqual([AWAITING_PAYMENT, REQUESTED]);
    expect([...bookingTransitions.terminal].sort()).toEqual([CANCELLED, COMPLETED]);
  });
});

describe("the booking table's guard", () => {
  it.each([
    [REQUESTED, undefined],
    [AWAITING_PAYMENT, undefined],
    [CONFIRMED, 'Cannot cancel the booking while the status is confirmed.'],
    [ON_HOLD, 'Cannot cancel the booking while the status is on_hold.'],
  ])('lets a client cancel from %s only before payment: %s', (from, refusal) => {
    expect(
      bookingTransitions.refusal(
        from,
        CANCELLED,
        booking(from, { heldFrom: from === ON_HOLD ? REQUESTED : null }),
        CLIENT,
        'cancel the booking',
      ),
    ).toBe(refusal);
  });

  it.each([REQUESTED, AWAITING_PAYMENT, CONFIRMED, ON_HOLD])('lets staff cancel from %s (D12)', (from) => {
    expect(bookingTransitions.refusal(from, CANCELLED, booking(from), STAFF, 'cancel the booking')).toBeUndefined();
  });

  describe('the system cancels only an unpaid booking whose start passed (D29)', () => {
    const expire = (row: Booking, at?: Date) =>
      bookingTransitions.refusal(row.status, CANCELLED, row, { ...SYSTEM, at }, 'expire the booking');
    const NOT_DUE = 'The booking is no longer due to expire.';

    it.each([REQUESTED, AWAITING_PAYMENT])('expires a %s booking once its start passed, and not before', (status) => {
      expect(expire(booking(status, { scheduledAt: PAST }))).toBeUndefined();
      expect(expire(booking(status))).toBe(NOT_DUE);
    });

    it('expires a held booking by the state the hold interrupted', () => {
      expect(expire(booking(ON_HOLD, { heldFrom: REQUESTED, scheduledAt: PAST }))).toBeUndefined();
      expect(expire(booking(ON_HOLD, { heldFrom: AWAITING_PAYMENT, scheduledAt: PAST }))).toBeUndefined();
      expect(expire(booking(ON_HOLD, { heldFrom: CONFIRMED, scheduledAt: PAST }))).toBe(NOT_DUE);
    });

    it('never expires a paid booking', () => {
      expect(expire(booking(CONFIRMED, { scheduledAt: PAST }))).toBe(NOT_DUE);
    });

    it("reads the start at the sweep's own clock", () => {
      const start = new Date('2030-01-01T10:00:00Z');
      expect(expire(booking(AWAITING_PAYMENT, { scheduledAt: start }), new Date('2030-01-01T09:59:59Z'))).toBe(NOT_DUE);
      expect(expire(booking(AWAITING_PAYMENT, { scheduledAt: start }), start)).toBeUndefined();
    });
  });

  it('confirms availability only before the start (D29)', () => {
    expect(
      bookingTransitions.refusal(REQUESTED, AWAITING_PAYMENT, booking(REQUESTED), STAFF, 'confirm availability'),
    ).toBeUndefined();
    expect(
      bookingTransitions.refusal(
        REQUESTED,
        AWAITING_PAYMENT,
        booking(REQUESTED, { scheduledAt: PAST }),
        STAFF,
        'confirm availability',
      ),
    ).toEqual({
      field: 'scheduled_at',
      message: "The booking's start (2020-03-04 09:30 UTC) has passed: it can no longer be confirmed.",
    });
  });

  it('is paid only before the start (D29)', () => {
    expect(
      bookingTransitions.refusal(AWAITING_PAYMENT, CONFIRMED, booking(AWAITING_PAYMENT), SYSTEM, 'pay the booking'),
    ).toBeUndefined();
    expect(
      bookingTransitions.refusal(
        AWAITING_PAYMENT,
        CONFIRMED,
        booking(AWAITING_PAYMENT, { scheduledAt: PAST, scheduledOffsetMinutes: -300 }),
        SYSTEM,
        'pay the booking',
      ),
    ).toEqual({
      field: 'scheduled_at',
      message:
        "The booking's start (2020-03-04 04:30 UTC-05:00 (2020-03-04 09:30 UTC)) has passed: it can no longer be paid.",
    });
  });

  it('completes only once the start passed (D29)', () => {
    expect(
      bookingTransitions.refusal(
        CONFIRMED,
        COMPLETED,
        booking(CONFIRMED, { scheduledAt: PAST }),
        STAFF,
        'complete the booking',
      ),
    ).toBeUndefined();
    expect(bookingTransitions.refusal(CONFIRMED, COMPLETED, booking(CONFIRMED), STAFF, 'complete the booking')).toEqual(
      {
        field: 'scheduled_at',
        message: 'The booking cannot be completed before its start (2999-03-04 09:30 UTC).',
      },
    );
  });

  it('refuses nothing else the table allows, whoever asks', () => {
    const guarded = (from: BookingStatus, to: BookingStatus) =>
      to === CANCELLED ||
      (from === REQUESTED && to === AWAITING_PAYMENT) ||
      (from === AWAITING_PAYMENT && to === CONFIRMED) ||
      (from === CONFIRMED && to === COMPLETED);
    for (const [from, to] of MOVES.filter(([from, to]) => !guarded(from, to))) {
      for (const scheduledAt of [PAST, FUTURE]) {
        for (const by of [CLIENT, STAFF, SYSTEM])
          expect(
            bookingTransitions.refusal(from, to, booking(from, { scheduledAt }), by, 'move the booking'),
          ).toBeUndefined();
      }
    }
  });
});

describe("the booking table's actions (D28)", () => {
  const refusalsIn = (action: BookingAction) =>
    Object.fromEntries(
      Object.values(BookingStatus).map((status) => [status, bookingTransitions.actionRefusal(action, booking(status))]),
    );

  it.each([
    ['assign_interpreter', 'assign an interpreter'],
    ['reschedule', 'reschedule the booking'],
  ] as const)('allows %s until the booking is finished', (action, describe) => {
    expect(refusalsIn(action)).toEqual({
      [REQUESTED]: undefined,
      [AWAITING_PAYMENT]: undefined,
      [CONFIRMED]: undefined,
      [COMPLETED]: `Cannot ${describe} while the status is completed.`,
      [ON_HOLD]: undefined,
      [CANCELLED]: `Cannot ${describe} while the status is cancelled.`,
    });
  });

  it('changes the duration only before payment is asked for', () => {
    const refused = {
      field: 'duration_hours',
      message: 'The duration changes only before payment is asked for: cancel and book again, or keep the duration.',
    };
    expect(refusalsIn('change_duration')).toEqual({
      [REQUESTED]: undefined,
      [AWAITING_PAYMENT]: refused,
      [CONFIRMED]: refused,
      [COMPLETED]: refused,
      [ON_HOLD]: refused,
      [CANCELLED]: refused,
    });
  });
});
