/** A filter for text containing `search` as typed: LIKE's wildcards in it match themselves. */
export function containing(search: string): { $ilike: string } {
  return { $ilike: `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` };
}
