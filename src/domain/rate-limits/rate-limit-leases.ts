import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../shared/logger';
import type { LeaseStore } from './rate-limit.service';

/** The row of `rate_limit_counts` holding a budget's shared count (one a bucket and window; no process owns it). */
const SHARED = '00000000-0000-0000-0000-000000000000';

/**
 * The shared count of D24 for several HTTP processes on one database: a lease is one statement that adds to the
 * bucket's row for the window, unless the row is already at the ceiling (the upsert locks the row, so two processes
 * never both take the last lease), and deletes the rows of ended windows.
 */
export class DatabaseLeases implements LeaseStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly logger: Logger,
  ) {}

  async take(bucket: string, windowStart: Date, amount: number, ceiling: number): Promise<number | null> {
    try {
      const rows = await this.orm.em.fork().getConnection().execute<{ hits: number }[]>(
        `with swept as (delete from rate_limit_counts where window_start < ?)
         insert into rate_limit_counts (bucket, window_start, process_id, hits) values (?, ?, ?, ?)
         on conflict (bucket, window_start, process_id) do update set hits = rate_limit_counts.hits + excluded.hits
           where rate_limit_counts.hits + excluded.hits <= ?
         returning hits`,
        [windowStart, bucket, windowStart, SHARED, amount, ceiling],
      );
      return rows[0]?.hits ?? null;
    } catch (err) {
      // The budget keeps working on this process's own count while the database does not answer.
      this.logger.warn({ err }, 'rate limit lease failed');
      return amount;
    }
  }
}
