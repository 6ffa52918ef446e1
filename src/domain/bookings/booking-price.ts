/** The hours billed (never under the mode's minimum) and their price at the booking's hourly rate. */
export function priceHours(
  durationHundredths: number,
  minimumHours: number,
  unitPriceCents: number,
): { billableHundredths: number; totalCents: number } {
  const billableHundredths = Math.max(durationHundredths, minimumHours * 100);
  return { billableHundredths, totalCents: Math.round((billableHundredths * unitPriceCents) / 100) };
}
