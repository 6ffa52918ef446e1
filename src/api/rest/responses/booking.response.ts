import { z } from 'zod';
import { BookingSetting, BookingStatus } from '../../../domain/bookings/booking.entity';
import { InterpreterQualification } from '../../../domain/bookings/interpreter.entity';
import { InterpretationMode } from '../../../domain/catalog/catalog.enums';
import { BOOKING_LIFECYCLE } from '../openapi/lifecycles';
import { Cents, Currency, Id, Timestamp, Url } from './base.response';
import { Payment } from './payment.response';
import { PlacedBy } from './priced-work.response';
import { component, documented } from './response-registry';

export const MODE =
  'How the interpreter works: `on_site` (in person at `location`), `video_remote`, `sight_translation` (a document read aloud in the other language), `asl` (American Sign Language) or `ai_conference` (machine interpretation of a call). Each has its own hourly rate in `GET /pricing`.';
export const SETTING =
  'What the assignment is, so the operator picks a suitable interpreter; it does not change the price.';

export const BookingOvertime = component(
  'BookingOvertime',
  z.strictObject({
    hours: documented(
      z.number().min(0.5).multipleOf(0.5),
      'The actual hours, rounded up to the half hour, less `billable_hours`.',
    ),
    amount_cents: Cents.describe("`hours` x the booking's `unit_price_cents`, rounded to the cent."),
    approval_url: documented(
      Url.nullable(),
      'Where the payer pays the overtime (also e-mailed to the account); null for an account on terms, whose overtime is placed on account by the completion.',
    ),
    paid_at: documented(
      Timestamp.nullable(),
      'When the overtime was paid, or placed on account (UTC); null until then.',
    ),
    receipt_url: documented(
      Url.nullable(),
      "The overtime's receipt once paid by card, as `payment.receipt_url`; null before, and on account.",
    ),
    refunded_cents: Cents.describe(
      "What the operator refunded of the overtime, as `payment.refunded_cents` is of the booking's own payment; 0 until then.",
    ),
  }),
);

export const BookingPayment = component(
  'BookingPayment',
  Payment.extend({
    overtime: documented(
      BookingOvertime.nullable(),
      'Time the session ran past `billable_hours`, charged by a checkout of its own (for an account on terms, placed on account at once and billed as a line of its next invoice); null unless staff recorded more hours at completion.',
    ),
  }),
);

export const CancellationDeadlines = component(
  'CancellationDeadlines',
  z.strictObject({
    full_refund_until: Timestamp.describe(
      'Until this moment (UTC, included) a cancel refunds all of what was paid: 48 hours before `scheduled_at`.',
    ),
    half_refund_until: Timestamp.describe(
      'Until this moment (UTC, included) a cancel refunds half; nothing after it: 24 hours before `scheduled_at`.',
    ),
    terms: documented(
      z.string(),
      "The policy as the booking's e-mails write it, each deadline in the offset `scheduled_at` was written with and in UTC beside it.",
      [
        'Cancellation once paid: refunded in full by 2026-11-29 09:30 UTC-05:00 (2026-11-29 14:30 UTC); 50% refunded by 2026-11-30 09:30 UTC-05:00 (2026-11-30 14:30 UTC); nothing refunded after that.',
      ],
    ),
  }),
);

export const AssignedInterpreter = component(
  'AssignedInterpreter',
  z.strictObject({
    name: documented(z.string(), "The interpreter's name."),
    qualifications: documented(
      z.array(z.enum(InterpreterQualification)),
      'What the interpreter is certified for: `COURT_CERTIFIED` (needed for a court date or a deposition), `MEDICAL_CERTIFIED`, `ASL_CERTIFIED` (needed for `asl`).',
    ),
  }),
);

/** A booking as `getBooking` answers it (D12), with the fields D27, D29 and D32 added. */
export const Booking = component(
  'Booking',
  z.strictObject({
    id: Id.describe('The booking id.'),
    number: documented(
      z.string().regex(/^[A-Z0-9]{2,10}-INT-\d{4}-[A-Z0-9]{6}$/),
      'Short booking number for people and phone calls: operator prefix, `INT`, year and month made (YYMM), six characters.',
      ['LT-INT-2611-7QK2ZP'],
    ),
    status: documented(z.enum(BookingStatus), BOOKING_LIFECYCLE),
    mode: documented(z.enum(InterpretationMode), MODE),
    setting: documented(z.enum(BookingSetting), SETTING),
    source_language: documented(z.string(), 'Canonical code of the language interpreted from.'),
    target_language: documented(z.string(), 'Canonical code of the language interpreted into.'),
    scheduled_at: Timestamp.describe('Start of the assignment, in UTC.'),
    duration_hours: documented(z.number(), 'Expected length in hours, as requested.'),
    billable_hours: documented(z.number().min(2), 'Hours billed: `duration_hours`, but at least 2.'),
    unit_price_cents: Cents.describe(
      'Hourly rate of the mode in cents, kept from when the booking was made (a later rate change does not alter it).',
    ),
    total_cents: Cents.describe(
      'What the client pays, in cents: `billable_hours` x `unit_price_cents`, rounded to the cent.',
    ),
    currency: Currency.describe('Currency of the amounts.'),
    payment: BookingPayment.describe(
      'The payment. Until staff confirm an interpreter it names only the provider; its other fields are null.',
    ),
    location: documented(
      z.string().nullable(),
      'Where the assignment takes place, as given; null when none was given.',
    ),
    video_platform_notes: documented(
      z.string().nullable(),
      'How to join a remote session, as given; null when none was given.',
    ),
    reference: documented(z.string().nullable(), 'Your own reference, as given; null when none was given.'),
    interpreter_name: documented(z.string().nullable(), 'The interpreter staff confirmed; null while `requested`.'),
    interpreter: documented(
      AssignedInterpreter.nullable(),
      'The interpreter on record staff confirmed, with their qualifications; null while `requested`, or when staff named an interpreter who is not on record.',
    ),
    hold_reason: documented(z.string().nullable(), 'Why the booking is on hold; null unless `status` is `on_hold`.'),
    cancellation_deadlines: documented(
      CancellationDeadlines.nullable(),
      'When a cancel of the paid booking stops refunding all, then half, of it (`booking_policy` of `GET /pricing`): set while it is `confirmed` (or on hold from there); null while it cancels free (not paid yet) or is finished.',
    ),
    completed_at: documented(Timestamp.nullable(), 'When staff marked it completed (UTC); null before.'),
    cancelled_at: documented(Timestamp.nullable(), 'When it was cancelled (UTC); null unless cancelled.'),
    created_at: Timestamp.describe('When the booking was made (UTC).'),
    updated_at: Timestamp.describe('Last change of anything in the booking (UTC).'),
    placed_by: PlacedBy.describe("Who made it: the account's API key, or a member signed in to the partner portal."),
  }),
);

export type BookingJson = z.output<typeof Booking>;
