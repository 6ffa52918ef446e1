import { Validator } from '../shared/validation';

export interface NotarizationInput {
  notaryName: string;
  commissionNumber: string;
  jurisdiction: string;
  commissionExpiresOn: string;
  notarizedAt: Date;
}

/** A few minutes of clock difference between the desk and the server are not "the future". */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * D21's details, all required: `commission_expires_on` a real calendar date (YYYY-MM-DD), `notarized_at` a
 * date-time with an explicit offset, not in the future, within the commission.
 */
export function readNotarization(input: Record<string, unknown>): NotarizationInput {
  const v = new Validator(input);
  const notaryName = v.string('notary_name', { required: true, max: 255 });
  const commissionNumber = v.string('commission_number', { required: true, max: 100 });
  const jurisdiction = v.string('jurisdiction', { required: true, max: 255 });
  const expiresOn = v.string('commission_expires_on', { required: true, max: 10 });
  const at = v.string('notarized_at', { required: true, max: 40 });
  const commissionExpiresOn = expiresOn === undefined ? undefined : calendarDate(expiresOn);
  if (expiresOn !== undefined && !commissionExpiresOn)
    v.fail('commission_expires_on', 'The commission expires on field must be a date (YYYY-MM-DD).');
  const notarizedAt = at === undefined ? undefined : dateTime(at);
  if (at !== undefined && !notarizedAt)
    v.fail('notarized_at', 'The notarized at field must be a date-time with an offset.');
  if (notarizedAt && notarizedAt.getTime() > Date.now() + CLOCK_SKEW_MS)
    v.fail('notarized_at', 'The notarized at field must not be in the future.');
  if (notarizedAt && commissionExpiresOn && notarizedAt.toISOString().slice(0, 10) > commissionExpiresOn) {
    v.fail('commission_expires_on', "The notary's commission had expired when the document was notarized.");
  }
  v.done();
  return {
    notaryName: notaryName!,
    commissionNumber: commissionNumber!,
    jurisdiction: jurisdiction!,
    commissionExpiresOn: commissionExpiresOn!,
    notarizedAt: notarizedAt!,
  };
}

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
