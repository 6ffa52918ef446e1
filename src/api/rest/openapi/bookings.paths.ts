import { dataOf, json, listOf, nullable, object, pageParameters, ref, responseRef } from './components';

const STATUSES = ['requested', 'awaiting_payment', 'confirmed', 'completed', 'on_hold', 'cancelled'];
const MODES = ['on_site', 'video_remote', 'sight_translation', 'asl', 'ai_conference'];
const SETTINGS = ['deposition', 'court', 'arbitration', 'meeting', 'conference', 'other'];
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Booking id.' };
const authErrors = { 401: responseRef('Unauthenticated'), 403: responseRef('Forbidden') };

export const bookingSchemas = {
  BookingRequest: {
    type: 'object',
    required: ['source_language', 'target_language', 'mode', 'scheduled_at', 'duration_hours'],
    properties: {
      source_language: { type: 'string' },
      target_language: { type: 'string' },
      mode: { enum: MODES },
      setting: { enum: SETTINGS, default: 'other' },
      scheduled_at: { type: 'string', description: 'ISO 8601 with an explicit offset, in the future.', examples: ['2026-12-01T09:30:00-05:00'] },
      duration_hours: { type: 'number', exclusiveMinimum: 0, maximum: 12, multipleOf: 0.01 },
      location: { type: 'string', maxLength: 500, description: 'Required for on_site.' },
      video_platform_notes: { type: 'string', maxLength: 2000 },
      reference: { type: 'string', maxLength: 255 },
      redirect_url: {
        type: 'string',
        format: 'uri',
        maxLength: 2048,
        description: "Where the payer is sent back after the checkout staff create once an interpreter is found, with `payment=<outcome>` and `booking_id`.",
      },
    },
  },
  Booking: object({
    id: ref('Id'),
    number: { type: 'string', pattern: '^[A-Z0-9]{2,10}-INT-\\d{4}-[A-Z0-9]{6}$' },
    status: { enum: STATUSES },
    mode: { enum: MODES },
    setting: { enum: SETTINGS },
    source_language: { type: 'string' },
    target_language: { type: 'string' },
    scheduled_at: ref('Timestamp'),
    duration_hours: { type: 'number' },
    billable_hours: { type: 'number', minimum: 2 },
    unit_price_cents: ref('Cents'),
    total_cents: ref('Cents'),
    currency: ref('Currency'),
    payment: ref('Payment'),
    location: nullable({ type: 'string' }),
    video_platform_notes: nullable({ type: 'string' }),
    reference: nullable({ type: 'string' }),
    interpreter_name: nullable({ type: 'string' }),
    hold_reason: nullable({ type: 'string' }),
    completed_at: nullable(ref('Timestamp')),
    cancelled_at: nullable(ref('Timestamp')),
    created_at: ref('Timestamp'),
    updated_at: ref('Timestamp'),
  }),
};

export const bookingPaths = {
  '/interpretation-bookings': {
    post: {
      operationId: 'createBooking',
      tags: ['Interpretation'],
      summary: 'Book an interpreter',
      description: 'Priced at once (billable hours = max(duration, 2) x the mode\'s hourly rate); payment is asked for once staff confirm an interpreter.',
      requestBody: { required: true, content: { 'application/json': { schema: ref('BookingRequest') } } },
      responses: { 201: json(dataOf(ref('Booking')), 'The requested booking.'), ...authErrors, 422: responseRef('ValidationFailed') },
    },
    get: {
      operationId: 'listBookings',
      tags: ['Interpretation'],
      summary: 'List bookings, newest first',
      parameters: [{ name: 'status', in: 'query', schema: { enum: STATUSES } }, ...pageParameters],
      responses: { 200: json(listOf(ref('Booking')), 'One page of bookings.'), ...authErrors, 422: responseRef('ValidationFailed') },
    },
  },
  '/interpretation-bookings/{id}': {
    get: {
      operationId: 'getBooking',
      tags: ['Interpretation'],
      summary: 'Booking detail (poll for progress)',
      parameters: [idParam],
      responses: { 200: json(dataOf(ref('Booking')), 'The booking.'), ...authErrors, 404: responseRef('NotFound') },
    },
  },
  '/interpretation-bookings/{id}/cancel': {
    post: {
      operationId: 'cancelBooking',
      tags: ['Interpretation'],
      summary: 'Cancel a booking that is not paid yet',
      description:
        'While its payment is being captured the cancel answers 422 with `errors.status` ["The payment is being processed."]: poll the booking; it ends confirmed or, if the capture is declined, cancellable again.',
      parameters: [idParam],
      responses: {
        200: json(dataOf(ref('Booking')), 'The cancelled booking.'),
        ...authErrors,
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
};

