import type { OperationCost } from './query-cost';

/**
 * D24: what an answer cost, as Shopify counts it: each object it returned costs 1 (its root aside; scalars are
 * free), so a page of 3 costs 3 items whatever its `perPage`; plus what is charged whatever came back (`flat`: the
 * fields the operation selected, D36, and its mutations that answer a scalar, D24). Never more than the requested
 * cost (queryCost), which counts a list without pages once; never less than 1.
 */
export function actualCost(data: unknown, { requested, flat }: OperationCost): number {
  const most = requested - flat;
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
  return Math.max(1, Math.min(most, objects) + flat);
}
