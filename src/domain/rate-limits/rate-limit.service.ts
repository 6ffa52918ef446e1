import { TooManyAttemptsError } from '../../shared/errors';

const WINDOW_MS = 60_000;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the budget is full again. */
  resetInSeconds: number;
}

interface Budget {
  /** Spent through this process in the current window: exact. */
  spent: number;
  /** Of `spent`, what the shared count has not been told yet. */
  unsynced: number;
  /** Spent through the other processes, as of the last sync. */
  others: number;
}

/** An API key's budget belongs to its account; the public catalog's (and anonymous GraphQL's) to the address. */
export const accountBucket = (accountId: string) => `account:${accountId}`;
export const addressBucket = (address: string | undefined) => `address:${address}`;

/** A batch for the shared count: this process's spending since the last sync, and every budget it tracks. */
export interface SyncBatch {
  windowStart: Date;
  spent: { bucket: string; hits: number }[];
  tracked: string[];
}

/**
 * D16/D24: a budget of `perMinute` a clock minute per bucket (an account, or a client address on the catalog),
 * counted in this process's memory, so that a request never waits on the database for it. Windows follow the
 * clock, so every process agrees on them without asking; with several processes, RateLimitSync adds what the
 * others spent.
 */
export class RateLimitService {
  private windowStart = 0;
  private budgets = new Map<string, Budget>();
  /** Each credential presented this window and the bucket it spends: a spent one is refused before any look-up. */
  private credentials = new Map<string, string>();

  constructor(
    readonly perMinute: number,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Spends `cost` from the bucket, or throws TooManyAttemptsError (spending nothing) when it is not left. */
  consume(bucket: string, cost: number): RateLimitState {
    const budget = this.budget(bucket);
    const left = this.perMinute - budget.spent - budget.others;
    if (cost > left) throw new TooManyAttemptsError(this.state(Math.max(0, left)));
    budget.spent += cost;
    budget.unsynced += cost;
    return this.state(left - cost);
  }

  /** Throws TooManyAttemptsError when nothing is left, so that a spent caller is refused before any work. */
  ensureLeft(bucket: string): void {
    this.rolled();
    const budget = this.budgets.get(bucket);
    if (budget && budget.spent + budget.others >= this.perMinute) {
      throw new TooManyAttemptsError(this.state(0));
    }
  }

  /** Remembers the bucket `credential` (an Authorization header) spends, for the rest of this window. */
  remember(credential: string, bucket: string): void {
    this.rolled();
    this.credentials.set(credential, bucket);
  }

  /**
   * Refuses a credential whose bucket is spent, known from an earlier request this window, without resolving it:
   * a tenant flooding the service with spent requests costs it no database work (D24).
   */
  ensureCredentialLeft(credential: string | undefined): void {
    this.rolled();
    const bucket = credential && this.credentials.get(credential);
    if (bucket) this.ensureLeft(bucket);
  }

  takeSyncBatch(): SyncBatch | null {
    this.rolled();
    if (this.budgets.size === 0) return null;
    const spent = [];
    for (const [bucket, budget] of this.budgets) {
      if (budget.unsynced > 0) spent.push({ bucket, hits: budget.unsynced });
      budget.unsynced = 0;
    }
    return { windowStart: new Date(this.windowStart), spent, tracked: [...this.budgets.keys()] };
  }

  /** What the other processes spent in the batch's window; a failed sync hands its spending back. */
  applySync(batch: SyncBatch, others: Map<string, number> | null): void {
    if (this.rolled() !== batch.windowStart.getTime()) return;
    for (const { bucket, hits } of others ? [] : batch.spent) this.budget(bucket).unsynced += hits;
    for (const [bucket, hits] of others ?? []) this.budget(bucket).others = hits;
  }

  private budget(bucket: string): Budget {
    this.rolled();
    let budget = this.budgets.get(bucket);
    if (!budget) this.budgets.set(bucket, (budget = { spent: 0, unsynced: 0, others: 0 }));
    return budget;
  }

  /** Starts a new window (an empty budget for everyone) when the clock has moved into one; returns its start. */
  private rolled(): number {
    const now = Date.now();
    const windowStart = now - (now % this.windowMs);
    if (windowStart !== this.windowStart) {
      this.windowStart = windowStart;
      this.budgets.clear();
      this.credentials.clear();
    }
    return windowStart;
  }

  private state(remaining: number): RateLimitState {
    return { limit: this.perMinute, remaining, resetInSeconds: Math.max(1, Math.ceil((this.windowStart + this.windowMs - Date.now()) / 1000)) };
  }
}
