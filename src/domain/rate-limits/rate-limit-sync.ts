import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../shared/logger';
import type { RateLimitService } from './rate-limit.service';

/** How stale another process's spending may be: the most the processes together can overshoot a budget by. */
export const SYNC_INTERVAL_MS = 500;

/**
 * The shared count of D24 for several HTTP processes on one database: every SYNC_INTERVAL_MS, while this process
 * has budgets in use, one statement adds what it spent to its own rows, reads what the others spent on the same
 * budgets, and deletes the rows of ended windows. Nothing runs while the process is idle, and never per request.
 */
export class RateLimitSync {
  private readonly processId = randomUUID();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly orm: MikroORM,
    private readonly limits: RateLimitService,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sync().finally(() => (this.running = undefined));
    }, SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the timer and tells the others what this process spent last. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.sync();
  }

  private async sync(): Promise<void> {
    const batch = this.limits.takeSyncBatch();
    if (!batch) return;
    try {
      const rows = await this.orm.em.fork().getConnection().execute<{ bucket: string; hits: number }[]>(
        `with swept as (delete from rate_limit_counts where window_start < ?),
         spent as (
           insert into rate_limit_counts (bucket, window_start, process_id, hits)
           select bucket, ?, ?, hits from jsonb_to_recordset(?::jsonb) as s(bucket text, hits int)
           on conflict (bucket, window_start, process_id) do update set hits = rate_limit_counts.hits + excluded.hits)
         select bucket, sum(hits)::int as hits from rate_limit_counts
         where window_start = ? and process_id <> ? and bucket in (select jsonb_array_elements_text(?::jsonb))
         group by bucket`,
        [batch.windowStart, batch.windowStart, this.processId, JSON.stringify(batch.spent), batch.windowStart, this.processId, JSON.stringify(batch.tracked)],
      );
      this.limits.applySync(batch, new Map(rows.map((row) => [row.bucket, row.hits])));
    } catch (err) {
      // The budget keeps working on this process's own count; the spending is told at the next sync.
      this.logger.warn({ err }, 'rate limit sync failed');
      this.limits.applySync(batch, null);
    }
  }
}
