import { LoadStrategy, LockMode, type EntityManager, type EntityName, type FilterQuery } from '@mikro-orm/core';
import type { AuditService } from '../audit/audit.service';
import type { Actor } from './context';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { assertTransition, canTransition, type TransitionTable } from './state-machine';
import { retryingTransaction } from './transaction';

/** What orders and bookings share: a status, and the hold that remembers the state it interrupted. */
export interface Stateful<S extends string> {
  id: string;
  status: S;
  heldFrom: S | null;
  holdReason: string | null;
  completedAt: Date | null;
  cancelledAt: Date | null;
}

/** Who moves a row and why: the audit row's actor, its action (`order.<action>`) and reason. */
export interface MoveCause {
  actor: Actor | null;
  action: string;
  reason?: string;
}

export interface LifecycleSpec<S extends string, E extends Stateful<S>> {
  entity: EntityName<E>;
  /** `order` or `booking`: the audit rows' resource type and the noun of refusals. */
  noun: string;
  table: TransitionTable<S>;
  onHold: S;
  completed: S;
  cancelled: S;
  audit: AuditService;
  /**
   * The area's own consequences of entering a state (timestamps, jobs, e-mail), run in the same transaction
   * after the status and the audit row are written.
   */
  entered?: (em: EntityManager, row: E, from: S, cause: MoveCause) => Promise<void>;
}

/**
 * The one way an order or a booking changes state (D26): lock the row, check the area's transition table,
 * apply the shared side columns (hold, release, cancel), write the audit row with the real `from` state and
 * let the area add its consequences, all in the caller's transaction. The table stays the only rule.
 */
export class Lifecycle<S extends string, E extends Stateful<S>> {
  constructor(private readonly spec: LifecycleSpec<S, E>) {}

  /**
   * Locks the row for the current transaction. Lock order is always this row, then its payment (D26). The lock
   * statement reads the row alone and its eager payment is read after it: joined in the same statement, a request
   * that waited for the lock would get the row as the holder left it but the payment as it was before the wait (a
   * booking confirmed meanwhile would seem to have none, and a cancel would leave its checkout open).
   */
  async lock(em: EntityManager, where: FilterQuery<E>): Promise<E | null> {
    return (await em.findOne(this.spec.entity, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, strategy: LoadStrategy.SELECT_IN })) as E | null;
  }

  /** Locks the row by id in a transaction of its own (retried on deadlock) and runs `work` on it; 404 when absent. */
  change(em: EntityManager, where: FilterQuery<E>, work: (tx: EntityManager, row: E) => Promise<void>): Promise<E> {
    return retryingTransaction(em, async (tx) => {
      const row = await this.lock(tx, where);
      if (!row) throw new NotFoundError();
      await work(tx, row);
      return row;
    });
  }

  /** Moves `row` to `to`, refused (422 under `status`) when the table does not allow it. */
  async move(em: EntityManager, row: E, to: S, cause: MoveCause, describe = `${cause.action.replace(/_/g, ' ')} the ${this.spec.noun}`): Promise<void> {
    // A held row leaves the hold only by release (to where it was) or by cancel: no other move skips the hold.
    if (row.status === this.spec.onHold && to !== this.spec.cancelled) throw ValidationError.of('status', `Cannot ${describe} while the status is ${row.status}.`);
    return this.apply(em, row, to, cause, describe);
  }

  /** To cancelled: allowed from any state the table lets cancel, on hold included. */
  cancel(em: EntityManager, row: E, cause: MoveCause): Promise<void> {
    return this.move(em, row, this.spec.cancelled, cause);
  }

  /** Back to the state the hold interrupted. */
  async release(em: EntityManager, row: E, cause: MoveCause): Promise<void> {
    if (row.status !== this.spec.onHold || !row.heldFrom) {
      throw ValidationError.of('status', `Cannot release the ${this.spec.noun} while the status is ${row.status}.`);
    }
    await this.apply(em, row, row.heldFrom, cause, `release the ${this.spec.noun}`);
  }

  private async apply(em: EntityManager, row: E, to: S, cause: MoveCause, describe: string): Promise<void> {
    const from = row.status;
    assertTransition(this.spec.table, from, to, describe);
    const patch: Partial<Stateful<S>> = { status: to };
    if (to === this.spec.onHold) Object.assign(patch, { heldFrom: from, holdReason: cause.reason ?? null });
    else if (from === this.spec.onHold) Object.assign(patch, { heldFrom: null, holdReason: null });
    if (to === this.spec.completed) patch.completedAt = new Date();
    if (to === this.spec.cancelled) patch.cancelledAt = new Date();
    Object.assign(row, patch);
    this.record(em, row, from, cause);
    await em.flush();
    await this.spec.entered?.(em, row, from, cause);
  }

  get onHoldState(): S {
    return this.spec.onHold;
  }

  canMove(row: E, to: S): boolean {
    return canTransition(this.spec.table, row.status, to);
  }

  /** Waiting in `state`, or on hold from it. */
  isWaitingIn(row: E, state: S): boolean {
    return row.status === state || (row.status === this.spec.onHold && row.heldFrom === state);
  }

  /** On hold with the reason (staff, the pipeline, a payment reversal). */
  hold(em: EntityManager, row: E, cause: MoveCause): Promise<void> {
    return this.move(em, row, this.spec.onHold, { ...cause, action: 'hold' });
  }

  /**
   * The row reached `to` through something that happened to it (a payment): a row on hold moves its
   * held-from state instead, so releasing resumes at `to` and the state's consequences wait for the release.
   */
  async advance(em: EntityManager, row: E, to: S, cause: MoveCause): Promise<void> {
    if (row.status !== this.spec.onHold || !row.heldFrom) return this.move(em, row, to, cause);
    assertTransition(this.spec.table, row.heldFrom, to, `${cause.action.replace(/_/g, ' ')} the ${this.spec.noun}`);
    row.heldFrom = to;
    this.record(em, row, row.status, cause, { held_from: to });
    await em.flush();
  }

  /** An audit row for something done to the row that is not a move of its own (an attached file, a payment). */
  record(em: EntityManager, row: E, from: S, cause: MoveCause, details?: Record<string, unknown>): void {
    const all = { ...(cause.reason ? { reason: cause.reason } : {}), ...details };
    this.spec.audit.record(em, cause.actor, {
      action: `${this.spec.noun}.${cause.action}`,
      resourceType: this.spec.noun,
      resourceId: row.id,
      fromState: from,
      toState: row.status,
      details: Object.keys(all).length ? all : undefined,
    });
  }
}
