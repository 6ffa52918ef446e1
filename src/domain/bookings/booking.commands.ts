import { z } from 'zod';
import { InterpretationMode } from '../catalog/catalog.enums';
import { differentLanguages, languageCode } from '../catalog/language-pair';
import { across, field, httpUrl, id, oneOf, text, windowInOrder, zonedDateTime } from '../shared/command-fields';
import { FIELD, isAbsent, readId, type Read } from '../shared/field-readers';
import { pageFields } from '../shared/pagination';
import { staffReasonCommand } from '../desk/desk.commands';
import { staffRefundCommand } from '../payments/payment.commands';
import { BookingSetting, BookingStatus } from './booking.entity';

const MAX_HUNDREDTHS = 12 * 100;

/** More than 0, at most `max` (12), at most two decimals, as a number or (from a form) digits; kept as hundredths. */
function readDurationHundredths(raw: unknown, rule: { required?: boolean; max?: number }): Read<number> {
  const max = rule.max ?? MAX_HUNDREDTHS / 100;
  if (isAbsent(raw)) return rule.required ? { error: `The ${FIELD} field is required.` } : { value: undefined };
  const value =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isFinite(value)) return { error: `The ${FIELD} field must be a number.` };
  const hundredths = Math.round(value * 100);
  if (Math.abs(hundredths - value * 100) > 1e-6)
    return { error: `The ${FIELD} field must have at most 2 decimal places.` };
  if (hundredths <= 0 || hundredths > max * 100)
    return { error: `The ${FIELD} field must be greater than 0 and at most ${max}.` };
  return { value: hundredths };
}

/** A booking's length in hours, read as hundredths of an hour. */
export const durationHundredths = <R extends boolean | undefined = undefined>(
  rule: { required?: R; max?: number } = {},
) =>
  field<number, R>(rule.required, (raw) => readDurationHundredths(raw, rule), {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: rule.max ?? MAX_HUNDREDTHS / 100,
    multipleOf: 0.01,
  });

/**
 * How far ahead a booking may start (D12): courts list hearings months ahead, rarely past a year or two; a start
 * further away is a mistyped year ("2206", "2062"), which would take the client's money now for a session no one will
 * attend.
 */
export const MOST_YEARS_AHEAD = 5;

/**
 * When the interpreter is needed: in the future (D12) and within `MOST_YEARS_AHEAD` years, with the offset it was
 * written in kept (D29).
 */
const startTime = () =>
  zonedDateTime({ required: true })
    .refine((start) => start.date.getTime() > Date.now(), `The ${FIELD} field must be a date in the future.`)
    .refine(
      (start) => start.date.getTime() <= latestStart(new Date()).getTime(),
      `The ${FIELD} field must be within ${MOST_YEARS_AHEAD} years from now.`,
    );

/** The latest start a booking made at `now` may have: the same moment, `MOST_YEARS_AHEAD` years on (UTC). */
function latestStart(now: Date): Date {
  const latest = new Date(now);
  latest.setUTCFullYear(now.getUTCFullYear() + MOST_YEARS_AHEAD);
  return latest;
}

/** `POST /interpretation-bookings` and `createInterpretationBooking`: priced at once (D12). */
export const createBookingCommand = z
  .object({
    sourceLanguage: languageCode(),
    targetLanguage: languageCode(),
    mode: oneOf(Object.values(InterpretationMode), { required: true }),
    setting: oneOf(Object.values(BookingSetting)),
    scheduledAt: startTime(),
    durationHours: durationHundredths({ required: true }),
    location: text({ max: 500 }),
    videoPlatformNotes: text({ max: 2000 }),
    reference: text({ max: 255, printed: true }),
    redirectUrl: httpUrl(),
  })
  .check(across(['sourceLanguage', 'targetLanguage'], differentLanguages))
  .check(
    across(['mode', 'location'], (command, ctx) => {
      // An interpreter in person needs an address; remote modes may name one.
      if (command.mode === InterpretationMode.ON_SITE && !command.location)
        ctx.addIssue({
          code: 'custom',
          path: ['location'],
          message: 'The location field is required.',
          input: command.location,
        });
    }),
  );
export type CreateBooking = z.output<typeof createBookingCommand>;

/** `GET /interpretation-bookings` and `interpretationBookings`; `updated_since` polls for changes (D23). */
export const listBookingsCommand = z.object({
  status: oneOf(Object.values(BookingStatus)),
  updatedSince: zonedDateTime(),
  ...pageFields,
});
export type ListBookings = z.output<typeof listBookingsCommand>;

/** Staff's `staffInterpretationBookings`: a window of start times, `from` inclusive and `to` exclusive (D28). */
export const staffBookingsCommand = z
  .object({
    status: oneOf(Object.values(BookingStatus)),
    accountId: id(),
    from: zonedDateTime(),
    to: zonedDateTime(),
    search: text({ max: 255 }),
    ...pageFields,
  })
  .check(windowInOrder());
export type StaffBookings = z.output<typeof staffBookingsCommand>;

/** Staff's `confirmInterpretationAvailability`: the interpreter on record found (D12, D32). */
export const confirmAvailabilityCommand = z.object({
  interpreterId: field<string, true>(
    true,
    (raw) => (isAbsent(raw) ? { error: `The ${FIELD} field is required.` } : readId(raw)),
    { type: 'string', format: 'uuid', maxLength: 36 },
  ),
});

/** Staff's `replaceInterpreter`: another interpreter on record, checked as a confirmation checks them (D32). */
export const replaceInterpreterCommand = confirmAvailabilityCommand;
export type ReplaceInterpreter = z.output<typeof replaceInterpreterCommand>;

/** The same, deprecated: a name alone, checked against no rule (D32). */
export const confirmByNameCommand = z.object({ interpreterName: text({ required: true, max: 255 }) });

export type ConfirmAvailability = z.output<typeof confirmAvailabilityCommand> | z.output<typeof confirmByNameCommand>;

/** Staff's `assignInterpreter`: a name, or nothing to clear it (D28). */
export const assignInterpreterCommand = z.object({ interpreterName: text({ max: 255 }) });
export type AssignInterpreter = z.output<typeof assignInterpreterCommand>;

/** Staff's `rescheduleInterpretationBooking`: a new start, and a new length if the price may still change (D28). */
export const rescheduleBookingCommand = z.object({
  scheduledAt: startTime(),
  durationHours: durationHundredths(),
});
export type RescheduleBooking = z.output<typeof rescheduleBookingCommand>;

/** Staff's `staffCancelInterpretationBooking`: why, and whether the cancellation policy's fee is waived (D32). */
export const staffCancelBookingCommand = staffReasonCommand.extend({ waiveFee: z.boolean().optional() });
export type StaffCancelBooking = z.output<typeof staffCancelBookingCommand>;

/** Staff's `refundInterpretationBooking` (D30): an amount and why, from the booking's payment or its overtime's (D32). */
export const staffBookingRefundCommand = staffRefundCommand.extend({ overtime: z.boolean().optional() });
export type StaffBookingRefund = z.output<typeof staffBookingRefundCommand>;

/** Staff's `completeInterpretationBooking`: the hours the session really took, if staff record them (D32). */
export const completeBookingCommand = z.object({ actualHours: durationHundredths({ max: 24 }) });
export type CompleteBooking = z.output<typeof completeBookingCommand>;
