import {
  created,
  dataOf,
  described,
  json,
  listOf,
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
import { MODE, SETTING } from '../responses/booking.response';

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
        'Start of the assignment: ISO 8601 with an explicit offset (`Z` or `-05:00`), in the future and within 5 years. Answered back in UTC.',
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
