import type { OperationCost } from './query-cost';

/**
 * D24: what an answer cost, as Shopify counts it: each object it returned costs 1 (its root aside; scalars are
 * free), so a page of 3 costs 3 items whatever its `perPage`; D36: plus the charge for the fields the operation
 * selected, which were read and answered whatever came back. Never more than the requested cost (queryCost), which
 * counts a list without pages once; never less than 1.
 */
export function actualCost(data: unknown, { requested, width }: OperationCost): number {
  const most = requested - width;
  let objects = 0;
  const walk = (value: unknown): void => {
    if (objects >= most || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    objects++;
    for (const field of Object.values(value)) walk(field);
  };
  if (data !== null && typeof data === 'object') for (const field of Object.values(data)) walk(field);
  return Math.max(1, Math.min(most, objects) + width);
}
