import {
  created,
  dataOf,
  described,
  json,
  listOf,
  nullable,
  object,
  pageDocs,
  updatedSinceParameter,
  ref,
  responseRef,
} from './components';
import { createBookingCommand, listBookingsCommand } from '../../../domain/bookings/booking.commands';
import { queryParameters, requestBodySchema } from './request-schema';
import {
  exampleBookingCancelled,
  exampleBookingConfirmed,
  exampleBookingRenewed,
  exampleBookingRequest,
  exampleBookingRequested,
  examplePage,
} from './examples';
import { RENEWAL, renewalBody } from './orders.paths';
import { responseComponent } from '../responses/response-components';
import { BOOKING_LIFECYCLE } from './lifecycles';

const STATUSES = ['requested', 'awaiting_payment', 'confirmed', 'completed', 'on_hold', 'cancelled'];
const MODES = ['on_site', 'video_remote', 'sight_translation', 'asl', 'ai_conference'];
const SETTINGS = ['deposition', 'court', 'arbitration', 'meeting', 'conference', 'other'];
const MODE =
  'How the interpreter works: `on_site` (in person at `location`), `video_remote`, `sight_translation` (a document read aloud in the other language), `asl` (American Sign Language) or `ai_conference` (machine interpretation of a call). Each has its own hourly rate in `GET /pricing`.';
const SETTING = 'What the assignment is, so the operator picks a suitable interpreter; it does not change the price.';
const idParam = {
  name: 'id',
  in: 'path',
  required: true,
  schema: ref('Id'),
  description: 'Booking id, as answered when it was made.',
};
/** The prose of the polling parameter all lists share (D23), on the parameter this list's command generates. */
const { description, example } = updatedSinceParameter('bookings');
const updatedSince = { description, example };
const authErrors = { 401: responseRef('Unauthenticated'), 403: responseRef('Forbidden') };

export const bookingSchemas = {
  BookingRequest: requestBodySchema(createBookingCommand, {
    source_language: 'Language spoken by the party who needs the interpreter: a code of `GET /languages` (any case).',
    target_language: 'Language to interpret into, a code of `GET /languages`; different from `source_language`.',
    mode: MODE,
    setting: { description: SETTING, default: 'other' },
    scheduled_at: {
      description:
        'Start of the assignment: ISO 8601 with an explicit offset (`Z` or `-05:00`), in the future. Answered back in UTC.',
      examples: ['2026-12-01T09:30:00-05:00'],
    },
    duration_hours:
      'Expected length in hours, more than 0 and at most 12, two decimals at most. At least 2 hours are billed.',
    location: 'Street address of the assignment. Required for `on_site`, optional otherwise.',
    video_platform_notes: 'How to join a remote session (platform, meeting id, who admits the interpreter).',
    reference: 'Your own reference (a case number), echoed back.',
    redirect_url:
      'Absolute http(s) URL where the payer is sent back after the checkout that staff create once an interpreter is confirmed, with `payment=<outcome>` and `booking_id`. Without it the checkout ends on a page of the service.',
  }),
  Booking: object({
    id: described(ref('Id'), 'The booking id.'),
    number: {
      type: 'string',
      pattern: '^[A-Z0-9]{2,10}-INT-\\d{4}-[A-Z0-9]{6}$',
      description:
        'Short booking number for people and phone calls: operator prefix, `INT`, year and month made (YYMM), six characters.',
      examples: ['LT-INT-2611-7QK2ZP'],
    },
    status: { enum: STATUSES, description: BOOKING_LIFECYCLE },
    mode: { enum: MODES, description: MODE },
    setting: { enum: SETTINGS, description: SETTING },
    source_language: { type: 'string', description: 'Canonical code of the language interpreted from.' },
    target_language: { type: 'string', description: 'Canonical code of the language interpreted into.' },
    scheduled_at: described(ref('Timestamp'), 'Start of the assignment, in UTC.'),
    duration_hours: { type: 'number', description: 'Expected length in hours, as requested.' },
    billable_hours: { type: 'number', minimum: 2, description: 'Hours billed: `duration_hours`, but at least 2.' },
    unit_price_cents: described(
      ref('Cents'),
      'Hourly rate of the mode in cents, kept from when the booking was made (a later rate change does not alter it).',
    ),
    total_cents: described(
      ref('Cents'),
      'What the client pays, in cents: `billable_hours` x `unit_price_cents`, rounded to the cent.',
    ),
    currency: described(ref('Currency'), 'Currency of the amounts.'),
    payment: described(
      ref('BookingPayment'),
      'The payment. Until staff confirm an interpreter it names only the provider; its other fields are null.',
    ),
    location: nullable({ type: 'string' }, 'Where the assignment takes place, as given; null when none was given.'),
    video_platform_notes: nullable(
      { type: 'string' },
      'How to join a remote session, as given; null when none was given.',
    ),
    reference: nullable({ type: 'string' }, 'Your own reference, as given; null when none was given.'),
    interpreter_name: nullable({ type: 'string' }, 'The interpreter staff confirmed; null while `requested`.'),
    interpreter: nullable(
      ref('AssignedInterpreter'),
      'The interpreter on record staff confirmed, with their qualifications; null while `requested`, or when staff named an interpreter who is not on record.',
    ),
    hold_reason: nullable({ type: 'string' }, 'Why the booking is on hold; null unless `status` is `on_hold`.'),
    cancellation_deadlines: nullable(
      ref('CancellationDeadlines'),
      'When a cancel of the paid booking stops refunding all, then half, of it (`booking_policy` of `GET /pricing`): set while it is `confirmed` (or on hold from there); null while it cancels free (not paid yet) or is finished.',
    ),
    completed_at: nullable(ref('Timestamp'), 'When staff marked it completed (UTC); null before.'),
    cancelled_at: nullable(ref('Timestamp'), 'When it was cancelled (UTC); null unless cancelled.'),
    created_at: described(ref('Timestamp'), 'When the booking was made (UTC).'),
    updated_at: described(ref('Timestamp'), 'Last change of anything in the booking (UTC).'),
    placed_by: described(
      ref('PlacedBy'),
      "Who made it: the account's API key, or a member signed in to the partner portal.",
    ),
  }),
  BookingPayment: object({
    ...(responseComponent('Payment').properties as Record<string, object>),
    overtime: nullable(
      ref('BookingOvertime'),
      'Time the session ran past `billable_hours`, charged by a checkout of its own (for an account on terms, placed on account at once and billed as a line of its next invoice); null unless staff recorded more hours at completion.',
    ),
  }),
  BookingOvertime: object({
    hours: {
      type: 'number',
      minimum: 0.5,
      multipleOf: 0.5,
      description: 'The actual hours, rounded up to the half hour, less `billable_hours`.',
    },
    amount_cents: described(ref('Cents'), "`hours` x the booking's `unit_price_cents`, rounded to the cent."),
    approval_url: nullable(
      { type: 'string', format: 'uri' },
      'Where the payer pays the overtime (also e-mailed to the account); null for an account on terms, whose overtime is placed on account by the completion.',
    ),
    paid_at: nullable(ref('Timestamp'), 'When the overtime was paid, or placed on account (UTC); null until then.'),
    receipt_url: nullable(
      { type: 'string', format: 'uri' },
      "The overtime's receipt once paid by card, as `payment.receipt_url`; null before, and on account.",
    ),
  }),
  CancellationDeadlines: object({
    full_refund_until: described(
      ref('Timestamp'),
      'Until this moment (UTC, included) a cancel refunds all of what was paid: 48 hours before `scheduled_at`.',
    ),
    half_refund_until: described(
      ref('Timestamp'),
      'Until this moment (UTC, included) a cancel refunds half; nothing after it: 24 hours before `scheduled_at`.',
    ),
    terms: {
      type: 'string',
      description:
        "The policy as the booking's e-mails write it, each deadline in the offset `scheduled_at` was written with and in UTC beside it.",
      examples: [
        'Cancellation once paid: refunded in full by 2026-11-29 09:30 UTC-05:00 (2026-11-29 14:30 UTC); 50% refunded by 2026-11-30 09:30 UTC-05:00 (2026-11-30 14:30 UTC); nothing refunded after that.',
      ],
    },
  }),
  AssignedInterpreter: object({
    name: { type: 'string', description: "The interpreter's name." },
    qualifications: {
      type: 'array',
      items: { enum: ['COURT_CERTIFIED', 'MEDICAL_CERTIFIED', 'ASL_CERTIFIED'] },
      description:
        'What the interpreter is certified for: `COURT_CERTIFIED` (needed for a court date or a deposition), `MEDICAL_CERTIFIED`, `ASL_CERTIFIED` (needed for `asl`).',
    },
  }),
  RenewedBooking: object({
    data: described(ref('Booking'), 'The booking, with its new checkout in `payment`.'),
    provider_approval_url: {
      type: 'string',
      format: 'uri',
      description: "Send the customer here to pay (the same as the booking's `payment.approval_url`).",
    },
  }),
};

export const bookingPaths = {
  '/interpretation-bookings': {
    post: {
      operationId: 'createBooking',
      tags: ['Interpretation'],
      summary: 'Book an interpreter',
      description:
        "Priced at once: billable hours = max(duration, 2) x the mode's hourly rate, kept whatever the rate card later says. The booking starts `requested`; " +
        'payment is asked for only once staff confirm an interpreter (it then moves to `awaiting_payment` and the checkout link is e-mailed and shown in `payment.approval_url`).',
      requestBody: {
        required: true,
        description: 'What to book.',
        content: { 'application/json': { schema: ref('BookingRequest'), example: exampleBookingRequest } },
      },
      responses: {
        201: created(
          dataOf(ref('Booking'), 'The new booking.'),
          'The requested booking.',
          { data: exampleBookingRequested },
          '/interpretation-bookings/{id}',
        ),
        ...authErrors,
        422: responseRef('ValidationFailed'),
      },
    },
    get: {
      operationId: 'listBookings',
      tags: ['Interpretation'],
      summary: 'List bookings, newest first',
      description:
        "The account's bookings, newest first, a page at a time, optionally of one status; with `updated_since`, the bookings changed since then, oldest change first (poll for changes in one request).",
      parameters: queryParameters(listBookingsCommand, {
        status: 'Only bookings in this status; an unknown value is 422.',
        updated_since: updatedSince,
        ...pageDocs,
      }),
      responses: {
        200: json(
          listOf(ref('Booking')),
          'One page of bookings.',
          examplePage('/interpretation-bookings', exampleBookingConfirmed),
        ),
        ...authErrors,
        422: responseRef('ValidationFailed'),
      },
    },
  },
  '/interpretation-bookings/{id}': {
    get: {
      operationId: 'getBooking',
      tags: ['Interpretation'],
      summary: 'Booking detail (poll for progress)',
      description:
        'One booking. Poll it (with `If-None-Match`) to see staff confirm an interpreter, the payment land and the assignment complete.',
      parameters: [idParam],
      responses: {
        200: json(dataOf(ref('Booking'), 'The booking.'), 'The booking.', { data: exampleBookingConfirmed }),
        ...authErrors,
        404: responseRef('NotFound'),
      },
    },
  },
  '/interpretation-bookings/{id}/checkout': {
    post: {
      operationId: 'renewBookingCheckout',
      tags: ['Interpretation'],
      summary: 'Issue a new checkout for a booking waiting for payment',
      description: `${RENEWAL} A booking whose start has passed can no longer be paid: 422 under \`scheduled_at\`. If the payment provider fails, nothing changes (503).`,
      parameters: [idParam],
      requestBody: renewalBody,
      responses: {
        200: json(ref('RenewedBooking'), 'The booking with its new checkout.', {
          data: exampleBookingRenewed,
          provider_approval_url: exampleBookingRenewed.payment.approval_url,
        }),
        ...authErrors,
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
  '/interpretation-bookings/{id}/cancel': {
    post: {
      operationId: 'cancelBooking',
      tags: ['Interpretation'],
      summary: 'Cancel a booking that is not paid yet',
      description:
        'Allowed from `requested` and `awaiting_payment`; any other status answers 422 under `status` (a paid booking is cancelled by the operator). ' +
        'An open checkout is withdrawn. While its payment is being captured the cancel answers 422 with `errors.status` ["The payment is being processed."]: poll the booking; it ends confirmed or, if the capture is declined, cancellable again.',
      parameters: [idParam],
      responses: {
        200: json(dataOf(ref('Booking'), 'The booking, now cancelled.'), 'The cancelled booking.', {
          data: exampleBookingCancelled,
        }),
        ...authErrors,
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
};
