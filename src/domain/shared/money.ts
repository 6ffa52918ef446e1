import { ValidationError } from '../../shared/errors';

/** An amount as e-mails, pages and receipts write it: `$12.50`. */
export const formatMoney = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);

/**
 * The most one quote or booking may total (D30): far above any real work, and checked before an amount reaches the
 * database, whose columns it must fit.
 */
export const MAX_TOTAL_CENTS = 100_000_000;

/** Refuses a total past MAX_TOTAL_CENTS as a 422 on the field that made it so large. */
export function ensureWithinMaximumTotal(totalCents: number, currency: string, field: string): void {
  if (totalCents > MAX_TOTAL_CENTS)
    throw ValidationError.of(
      field,
      `The total would be ${formatMoney(totalCents, currency)}, more than the ${formatMoney(MAX_TOTAL_CENTS, currency)} one order may cost: split the work into smaller orders.`,
    );
}
