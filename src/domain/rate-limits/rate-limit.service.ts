import type { EntityManager } from '@mikro-orm/core';
import { TooManyAttemptsError } from '../shared/errors';

const WINDOW_SECONDS = 60;
/** Ended windows are deleted at most this often per process, so that address buckets do not pile up. */
const SWEEP_AFTER_MS = 10 * 60 * 1000;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the count starts again. */
  resetInSeconds: number;
}

/**
 * D16: so many requests a minute per bucket, counted in PostgreSQL so that every HTTP process shares one count.
 * A window opens at a bucket's first request and lasts a minute; one upsert both counts and reads it.
 */
export class RateLimitService {
  private lastSweep = 0;

  constructor(readonly perMinute: number) {}

  /** Counts a request; throws TooManyAttemptsError (carrying the state) once the bucket is past its limit. */
  async hit(em: EntityManager, bucket: string): Promise<RateLimitState> {
    const [row] = await em.getConnection().execute<{ hits: number; reset_in: number }[]>(
      `insert into rate_limit_windows (bucket, started_at, hits) values (?, now(), 1)
       on conflict (bucket) do update set
         hits = case when rate_limit_windows.started_at > now() - make_interval(secs => ${WINDOW_SECONDS}) then rate_limit_windows.hits + 1 else 1 end,
         started_at = case when rate_limit_windows.started_at > now() - make_interval(secs => ${WINDOW_SECONDS}) then rate_limit_windows.started_at else now() end
       returning hits, ceil(extract(epoch from started_at + make_interval(secs => ${WINDOW_SECONDS}) - now()))::int as reset_in`,
      [bucket],
    );
    this.sweep(em);
    const state = { limit: this.perMinute, remaining: Math.max(0, this.perMinute - row!.hits), resetInSeconds: Math.max(1, row!.reset_in) };
    if (row!.hits > this.perMinute) throw new TooManyAttemptsError(state);
    return state;
  }

  private sweep(em: EntityManager): void {
    if (Date.now() - this.lastSweep < SWEEP_AFTER_MS) return;
    this.lastSweep = Date.now();
    void em
      .getConnection()
      .execute(`delete from rate_limit_windows where started_at < now() - make_interval(secs => ${WINDOW_SECONDS})`)
      .catch(() => undefined);
  }
}
