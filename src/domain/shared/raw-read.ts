import type { EntityManager } from '@mikro-orm/core';

export type Row = Record<string, unknown>;

/**
 * One statement through the ORM's own connection (so it is logged and counted like any other), its row returned as
 * the driver gives it, with a date parser that turns timestamps into the same `Date`s as entity hydration does.
 */
export async function readRow(em: EntityManager, sql: string, params: unknown[]): Promise<{ row: Row | undefined; date: (value: unknown) => Date | null }> {
  const [row] = await em.getConnection().execute<Row[]>(sql, params as never[]);
  const platform = em.getPlatform();
  return { row, date: (value) => (value === null || value === undefined ? null : (platform.parseDate(value as string) as Date)) };
}
