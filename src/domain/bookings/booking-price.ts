import { ensureWithinMaximumTotal } from '../shared/money';

/**
 * The hours billed (never under the mode's minimum) and their price at the booking's hourly rate; a price past the
 * most one booking may cost is refused on its duration (D30).
 */
export function priceHours(
  durationHundredths: number,
  minimumHours: number,
  unitPriceCents: number,
  currency: string,
): { billableHundredths: number; totalCents: number } {
  const billableHundredths = Math.max(durationHundredths, minimumHours * 100);
  const totalCents = Math.round((billableHundredths * unitPriceCents) / 100);
  ensureWithinMaximumTotal(totalCents, currency, 'duration_hours');
  return { billableHundredths, totalCents };
}
