import type { Payment } from '../payments/payment.entity';
import type { Booking } from './booking.entity';

/** When a booking starts, in the offset the client wrote it with (D29). */
export interface BookingStart {
  scheduledAt: Date;
  scheduledOffsetMinutes: number;
}

/**
 * What staff did to a booking that its lifecycle's events do not carry, raised in the transaction that did it
 * (docs/architecture.md "Domain events"): moved to a new time, with the start it had (D28, D32); or completed past the
 * hours billed, the overtime asked for at the card checkout of `payment` (D32; on terms it is placed on account
 * instead, D31, and raised as a payment received).
 */
export type BookingActivity =
  | { kind: 'rescheduled'; booking: Booking; previousStart: BookingStart }
  | {
      kind: 'overtime_billed';
      booking: Booking;
      payment: Payment;
      overtime: { hours: number; actualHours: number; amountCents: number };
    };
