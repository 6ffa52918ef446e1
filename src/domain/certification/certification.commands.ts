import { z } from 'zod';
import { across, text } from '../shared/command-fields';
import { FIELD } from '../shared/field-readers';

/** A few minutes of clock difference between the desk and the server are not "the future". */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** `2027-02-30` is refused, never moved to March. */
function calendarDate(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? value : undefined;
}

function dateTime(value: string): Date | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  if (!match || !calendarDate(match[1])) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A real calendar date, YYYY-MM-DD. */
const calendarDay = () =>
  text({ required: true, max: 10 }).refine(
    (value) => calendarDate(value) !== undefined,
    `The ${FIELD} field must be a date (YYYY-MM-DD).`,
  );

/** A date-time with an explicit offset. */
const instant = () =>
  text({ required: true, max: 40 }).transform((value, ctx) => {
    const date = dateTime(value);
    if (date) return date;
    ctx.addIssue({ code: 'custom', message: `The ${FIELD} field must be a date-time with an offset.`, input: value });
    return z.NEVER;
  });

/**
 * Staff's `recordNotarization`: D21's details, all required, the document notarized within the notary's
 * commission.
 */
export const recordNotarizationCommand = z
  .object({
    notaryName: text({ required: true, max: 255 }),
    commissionNumber: text({ required: true, max: 100 }),
    jurisdiction: text({ required: true, max: 255 }),
    commissionExpiresOn: calendarDay(),
    notarizedAt: instant(),
  })
  .check(
    across(['notarizedAt', 'commissionExpiresOn'], (command, ctx) => {
      if (command.notarizedAt.toISOString().slice(0, 10) > command.commissionExpiresOn)
        ctx.addIssue({
          code: 'custom',
          path: ['commissionExpiresOn'],
          message: "The notary's commission had expired when the document was notarized.",
          input: command.commissionExpiresOn,
        });
    }),
  )
  // After the commission's rule, so a date both in the future and past the commission hears both.
  .check(
    across(['notarizedAt'], (command, ctx) => {
      if (command.notarizedAt.getTime() > Date.now() + CLOCK_SKEW_MS)
        ctx.addIssue({
          code: 'custom',
          path: ['notarizedAt'],
          message: 'The notarized at field must not be in the future.',
          input: command.notarizedAt,
        });
    }),
  );
export type RecordNotarization = z.output<typeof recordNotarizationCommand>;
