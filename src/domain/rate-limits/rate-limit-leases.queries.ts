import type { EntityManager } from '@mikro-orm/core';
import { runSql } from '../../db/orm-driver';

/** The row of `rate_limit_counts` holding a budget's shared count (one a bucket and window; no process owns it). */
const SHARED = '00000000-0000-0000-0000-000000000000';

/**
 * Adds `amount` to the shared count of `bucket` for the window, unless that would pass `ceiling` (the upsert locks
 * the row, so two processes never both take the last lease), and deletes the rows of ended windows: the new count,
 * or null when the ceiling was reached (D24).
 */
export async function takeSharedLease(
  em: EntityManager,
  bucket: string,
  windowStart: Date,
  amount: number,
  ceiling: number,
): Promise<number | null> {
  const rows = await runSql<{ hits: number }>(
    em,
    `with swept as (delete from rate_limit_counts where window_start < ?)
     insert into rate_limit_counts (bucket, window_start, process_id, hits) values (?, ?, ?, ?)
     on conflict (bucket, window_start, process_id) do update set hits = rate_limit_counts.hits + excluded.hits
       where rate_limit_counts.hits + excluded.hits <= ?
     returning hits`,
    [windowStart, bucket, windowStart, SHARED, amount, ceiling],
  );
  return rows[0]?.hits ?? null;
}
