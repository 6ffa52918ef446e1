import type { Validator } from '../shared/validation';

const MAX_HUNDREDTHS = 12 * 100;

/** An ISO 8601 time with an explicit offset, in the future (D12); normalised to UTC by being a Date, its offset kept (D29). */
export function readScheduledAt(v: Validator): { date: Date; offsetMinutes: number } | undefined {
  const scheduled = v.zonedDateTime('scheduled_at', { required: true });
  if (scheduled === undefined) return undefined;
  if (scheduled.date.getTime() <= Date.now())
    return (v.fail('scheduled_at', 'The scheduled at field must be a date in the future.'), undefined);
  return scheduled;
}

/** A booking's duration (contract 2.7): more than 0, at most 12, at most two decimals; kept as hundredths. */
export function readDurationHundredths(v: Validator, raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '')
    return (v.fail('duration_hours', 'The duration hours field is required.'), undefined);
  const value =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isFinite(value))
    return (v.fail('duration_hours', 'The duration hours field must be a number.'), undefined);
  const hundredths = Math.round(value * 100);
  if (Math.abs(hundredths - value * 100) > 1e-6)
    return (v.fail('duration_hours', 'The duration hours field must have at most 2 decimal places.'), undefined);
  if (hundredths <= 0 || hundredths > MAX_HUNDREDTHS)
    return (v.fail('duration_hours', 'The duration hours field must be greater than 0 and at most 12.'), undefined);
  return hundredths;
}

/** The hours billed (never under the mode's minimum) and their price at the booking's hourly rate. */
export function priceHours(
  durationHundredths: number,
  minimumHours: number,
  unitPriceCents: number,
): { billableHundredths: number; totalCents: number } {
  const billableHundredths = Math.max(durationHundredths, minimumHours * 100);
  return { billableHundredths, totalCents: Math.round((billableHundredths * unitPriceCents) / 100) };
}
