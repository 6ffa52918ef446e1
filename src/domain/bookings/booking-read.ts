import type { Account } from '../identity/account.entity';
import type { PaymentRead } from '../payments/payment-read';
import type { Payment } from '../payments/payment.entity';
import type { Booking } from './booking.entity';
import type { AssignedInterpreter } from './interpreter.entity';

/** What a booking's answer shows of its overtime's checkout (D32). */
export type OvertimePaymentRead = Pick<Payment, 'id' | 'provider' | 'approvalUrl' | 'paidAt' | 'refundedCents'>;

/**
 * What the answer about a booking shows: a `Booking` entity is one, and so is the polled read
 * (`src/domain/bookings/polled-bookings.queries.ts`). Hours are read as the stored hundredths, which both doors turn into hours
 * with `hoursOf`.
 */
export type BookingRead = Pick<
  Booking,
  | 'id'
  | 'number'
  | 'status'
  | 'heldFrom'
  | 'mode'
  | 'setting'
  | 'sourceLanguage'
  | 'targetLanguage'
  | 'scheduledAt'
  | 'scheduledOffsetMinutes'
  | 'durationHundredths'
  | 'billableHundredths'
  | 'unitPriceCents'
  | 'totalCents'
  | 'currency'
  | 'location'
  | 'videoPlatformNotes'
  | 'reference'
  | 'interpreterName'
  | 'holdReason'
  | 'completedAt'
  | 'cancelledAt'
  | 'createdAt'
  | 'updatedAt'
  | 'placedBy'
  | 'actualHundredths'
  | 'overtimeHundredths'
  | 'overtimeCents'
> & {
  payment: PaymentRead | null;
  /** The interpreter on record confirmed for it (D32): the name and qualifications, never the e-mail. */
  interpreter: AssignedInterpreter | null;
  overtimePayment: OvertimePaymentRead | null;
};

/** A booking as polled: its answer and the version its `ETag` is made from (D23). */
export interface PolledBooking {
  booking: BookingRead;
  version: string;
}

/**
 * A booking as the staff desk's list shows it: its answer, with its account, read with it, and its payment's entity
 * (none before staff make its checkout), whose books staff see (D26).
 */
export type StaffBookingRead = Omit<BookingRead, 'payment'> & { payment: Payment | null; account: Account };
