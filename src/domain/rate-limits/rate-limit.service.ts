import { TooManyAttemptsError } from '../../shared/errors';
import type { AccountActor } from '../identity/context';

const WINDOW_MS = 60_000;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the budget is full again. */
  resetInSeconds: number;
  /** The start of the window this was spent in (ms): a refund applies to that window only. */
  window: number;
}

interface Budget {
  /** Spent through this process in the current window. */
  spent: number;
  /** With shared leases: what this process holds of the shared count and has not spent yet. */
  leased: number;
  /** With shared leases: the shared count as last read (everything leased to every process). */
  shared: number;
  /** With shared leases: the shared count refused a lease this window. */
  exhausted: boolean;
  /** With shared leases: the lease being taken, which other requests of this bucket wait for. */
  taking?: Promise<void>;
}

/**
 * The shared count of several HTTP processes (D24): `take` adds `amount` to the bucket's count for the window, unless
 * that would take it past `ceiling`, and answers the count after, or null when it refused.
 */
export interface LeaseStore {
  take(bucket: string, windowStart: Date, amount: number, ceiling: number): Promise<number | null>;
}

/** An API key's budget belongs to its account; the public catalog's (and anonymous GraphQL's) to the address. */
export const accountBucket = (accountId: string) => `account:${accountId}`;
export const addressBucket = (address: string | undefined) => `address:${address}`;
/** A member's session has a budget of its own (D27); the account's key spends the account's. */
export const partnerBucket = (actor: AccountActor) =>
  actor.member ? `session:${actor.member.sessionId}` : accountBucket(actor.accountId);

/**
 * D16/D24: a budget of `perMinute` a clock minute per bucket (an account, or a client address on the catalog),
 * counted in this process's memory, so that a request never waits on the database for it. Windows follow the
 * clock, so every process agrees on them without asking. With several processes (`shareThrough`), each takes
 * leases of `leaseSize` from a shared count and spends them in memory: one statement every `leaseSize` requests of a
 * bucket, and the budget overrun by less than a lease (a tenth of the budget) whatever the number of processes; a
 * process may refuse while another still holds an unspent lease (at most a lease a process).
 */
export class RateLimitService {
  private windowStart = 0;
  private budgets = new Map<string, Budget>();
  /** Each credential presented this window and the bucket it spends: a spent one is refused before any look-up. */
  private credentials = new Map<string, string>();
  private leases?: LeaseStore;
  readonly leaseSize: number;

  constructor(
    readonly perMinute: number,
    private readonly windowMs = WINDOW_MS,
  ) {
    this.leaseSize = Math.max(1, Math.floor(perMinute / 10));
  }

  /** Several processes share each budget through `leases` from now on. */
  shareThrough(leases: LeaseStore): void {
    this.leases = leases;
  }

  /** Spends `cost` from the bucket, or throws TooManyAttemptsError (spending nothing) when it is not left. */
  async consume(bucket: string, cost: number): Promise<RateLimitState> {
    let budget = this.budget(bucket);
    if (this.leases) {
      while (budget.leased < cost && !budget.exhausted) {
        await (budget.taking ??= this.takeLease(bucket, budget, cost).finally(() => (budget.taking = undefined)));
        budget = this.budget(bucket);
      }
      if (budget.leased < cost) throw new TooManyAttemptsError(this.state(this.left(budget)));
      budget.leased -= cost;
    } else if (cost > this.left(budget)) {
      throw new TooManyAttemptsError(this.state(this.left(budget)));
    }
    budget.spent += cost;
    return this.state(this.left(budget));
  }

  /**
   * Spends `cost`, or all that is left when less is (D36: a refused GraphQL document is charged as if it ran, and a
   * cost past the budget empties it). Throws TooManyAttemptsError only when nothing at all is left.
   */
  async spendUpTo(bucket: string, cost: number): Promise<RateLimitState> {
    try {
      return await this.consume(bucket, cost);
    } catch (error) {
      if (!(error instanceof TooManyAttemptsError) || error.state.remaining <= 0) throw error;
      return this.consume(bucket, error.state.remaining);
    }
  }

  /**
   * Gives back `cost` spent in `window` (a 304, D23; the part of a GraphQL query's requested cost it did not use,
   * D24); nothing when that window has ended, since the new one started full.
   */
  refund(bucket: string, cost: number, window: number): RateLimitState {
    const budget = this.budget(bucket);
    if (window === this.windowStart) {
      budget.spent -= cost;
      if (this.leases) budget.leased += cost;
    }
    return this.state(this.left(budget));
  }

  /** Throws TooManyAttemptsError when nothing is left, so that a spent caller is refused before any work. */
  ensureLeft(bucket: string): void {
    this.rolled();
    const budget = this.budgets.get(bucket);
    if (budget && this.left(budget) <= 0) throw new TooManyAttemptsError(this.state(0));
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

  /** What is left of the budget as far as this process knows: with leases, what no process has spent or holds. */
  private left(budget: Budget): number {
    if (!this.leases) return this.perMinute - budget.spent;
    return budget.exhausted ? budget.leased : Math.max(0, this.perMinute - budget.shared) + budget.leased;
  }

  /** A lease big enough for `cost`; a lease past the budget by less than a lease is still granted, then none. */
  private async takeLease(bucket: string, budget: Budget, cost: number): Promise<void> {
    const window = this.windowStart;
    const amount = Math.max(this.leaseSize, cost - budget.leased);
    const shared = await this.leases!.take(bucket, new Date(window), amount, this.perMinute + this.leaseSize - 1);
    if (this.rolled() !== window) return;
    if (shared === null) budget.exhausted = true;
    else {
      budget.leased += amount;
      budget.shared = shared;
    }
  }

  private budget(bucket: string): Budget {
    this.rolled();
    let budget = this.budgets.get(bucket);
    if (!budget) this.budgets.set(bucket, (budget = { spent: 0, leased: 0, shared: 0, exhausted: false }));
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
    return {
      limit: this.perMinute,
      remaining,
      resetInSeconds: Math.max(1, Math.ceil((this.windowStart + this.windowMs - Date.now()) / 1000)),
      window: this.windowStart,
    };
  }
}
