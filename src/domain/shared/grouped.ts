/** `items` in one list for each of `keys`, in the order of `keys`, by `keyOf`: what a batch loader answers. */
export function groupedBy<T>(keys: readonly string[], items: readonly T[], keyOf: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>(keys.map((key) => [key, []]));
  for (const item of items) groups.get(keyOf(item))?.push(item);
  return keys.map((key) => groups.get(key)!);
}
