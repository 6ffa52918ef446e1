import { LoadStrategy, LockMode, type EntityManager, type EntityName, type FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../../shared/errors';
import { cannot, refused, type Mover, type Refusal, type TransitionTable } from './state-machine';
import { EventHub } from '../shared/event-hub';
import { retryingTransaction } from '../shared/transaction';

/** What orders and bookings share: a status, and the hold that remembers the state it interrupted. */
export interface Stateful<S extends string> {
  id: string;
  status: S;
  heldFrom: S | null;
  holdReason: string | null;
  completedAt: Date | null;
  cancelledAt: Date | null;
}

/** Who moves a row and why: the audit row's actor, its action (`order.<action>`) and reason; `at` for a sweep's clock. */
export interface MoveCause extends Mover {
  action: string;
  reason?: string;
  /** A cancel that keeps a fee (a booking's, D32): what goes back, and the sentence that names the fee. */
  settlement?: { refundCents: number; currency: string; note: string };
}

/**
 * What happened to an order or a booking, raised in the transaction that did it: a move between states (`moved`), or
 * something done to the row in place (`recorded`: a file attached, a payment settled, a note), `from` and `to` then
 * the same state but for a held row's new `held_from`. The audit trail writes a row for each; the areas act on moves.
 */
export interface LifecycleEvent<S extends string, E extends Stateful<S>> {
  kind: 'moved' | 'recorded';
  /** `order` or `booking`. */
  noun: string;
  row: E;
  from: S;
  to: S;
  cause: MoveCause;
  details?: Record<string, unknown>;
}

export interface LifecycleSpec<S extends string, E extends Stateful<S>, A extends string> {
  entity: EntityName<E>;
  /** `order` or `booking`: the audit rows' resource type and the noun of refusals. */
  noun: string;
  table: TransitionTable<S, E, A>;
  onHold: S;
  completed: S;
  cancelled: S;
  /** The state that waits for the payment, and the one its capture moves to (D9, D26). */
  payment: { awaiting: S; paid: S };
}

/**
 * The one way an order or a booking changes state (D26): lock the row, check the area's transition table and its
 * guard, apply the shared side columns (hold, release, cancel), and raise the event with the real `from` state, all
 * in the caller's transaction; its subscribers (the audit trail, the area's jobs, the mail area's e-mails, wired in
 * `src/services.ts`) act in that transaction too. The table (moves, guard, actions) holds every rule about states;
 * the lifecycle adds only the hold's own: a held row leaves it by release or cancel.
 */
export class Lifecycle<S extends string, E extends Stateful<S>, A extends string = string> {
  /** Every move and record of a row, for the areas that act on them. */
  readonly events = new EventHub<LifecycleEvent<S, E>>();

  constructor(private readonly spec: LifecycleSpec<S, E, A>) {}

  /**
   * Locks the row for the current transaction. Lock order is always this row, then its payment (D26). The lock
   * statement reads the row alone and its eager payment is read after it: joined in the same statement, a request
   * that waited for the lock would get the row as the holder left it but the payment as it was before the wait (a
   * booking confirmed meanwhile would seem to have none, and a cancel would leave its checkout open).
   */
  async lock(em: EntityManager, where: FilterQuery<E>): Promise<E | null> {
    return em.findOne(this.spec.entity, where, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
      refresh: true,
      strategy: LoadStrategy.SELECT_IN,
    });
  }

  /** The row `where` as it is now, unlocked: what a request checks before the provider call that precedes its lock (D26). */
  read(em: EntityManager, where: FilterQuery<E>): Promise<E | null> {
    return em.findOne(this.spec.entity, where, { refresh: true });
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

  /** Moves `row` to `to`, refused (422) when the table or its guard does not allow it. */
  async move(em: EntityManager, row: E, to: S, cause: MoveCause, describe = this.describe(cause)): Promise<void> {
    this.check(row, to, cause, describe);
    return this.apply(em, row, to, cause);
  }

  /**
   * Refuses, as `move` would, a move about to be made: before work that must not start when it is refused (a
   * checkout at the provider, a payment settled, a certificate issued).
   */
  check(row: E, to: S, cause: MoveCause, describe = this.describe(cause)): void {
    // A held row leaves the hold only by release (to where it was) or by cancel: no other move skips the hold.
    if (row.status === this.spec.onHold && to !== this.spec.cancelled) throw refused(cannot(describe, row.status));
    this.spec.table.assertMove(row.status, to, row, cause, describe);
  }

  /** To cancelled: allowed from any state the table lets cancel, on hold included. */
  cancel(em: EntityManager, row: E, cause: MoveCause): Promise<void> {
    return this.move(em, row, this.spec.cancelled, cause);
  }

  /** Back to the state the hold interrupted. */
  async release(em: EntityManager, row: E, cause: MoveCause): Promise<void> {
    if (row.status !== this.spec.onHold || !row.heldFrom) {
      throw refused(cannot(`release the ${this.spec.noun}`, row.status));
    }
    this.spec.table.assertMove(row.status, row.heldFrom, row, cause, `release the ${this.spec.noun}`);
    await this.apply(em, row, row.heldFrom, cause);
  }

  private async apply(em: EntityManager, row: E, to: S, cause: MoveCause): Promise<void> {
    const from = row.status;
    const patch: Partial<Stateful<S>> = { status: to };
    if (to === this.spec.onHold) Object.assign(patch, { heldFrom: from, holdReason: cause.reason ?? null });
    else if (from === this.spec.onHold) Object.assign(patch, { heldFrom: null, holdReason: null });
    if (to === this.spec.completed) patch.completedAt = new Date();
    if (to === this.spec.cancelled) patch.cancelledAt = new Date();
    Object.assign(row, patch);
    await em.flush();
    await this.events.raise(em, { kind: 'moved', noun: this.spec.noun, row, from, to, cause });
    // What the subscribers made (the audit row, an e-mail) is written with the move, as the move was.
    await em.flush();
  }

  get onHoldState(): S {
    return this.spec.onHold;
  }

  get cancelledState(): S {
    return this.spec.cancelled;
  }

  canMove(row: E, to: S, by: Mover): boolean {
    return this.spec.table.refusal(row.status, to, row, by, 'move') === undefined;
  }

  /** Refuses (422) work the table does not allow in the row's state. */
  assertAction(row: E, action: A): void {
    this.spec.table.assertAction(action, row);
  }

  /** Waits for its payment: in the awaiting state, or on hold from it. */
  awaitsPayment(row: E): boolean {
    return this.isWaitingIn(row, this.spec.payment.awaiting);
  }

  /**
   * Why the payment of a row that waits for it could not move it on now (D29: a booking whose start passed), from the
   * table's guard; undefined when it could.
   */
  paymentRefusal(row: E): Refusal | undefined {
    const { awaiting, paid } = this.spec.payment;
    return this.spec.table.refusal(awaiting, paid, row, { actor: null }, `pay the ${this.spec.noun}`);
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
    this.spec.table.assertMove(row.heldFrom, to, row, cause, this.describe(cause));
    row.heldFrom = to;
    await em.flush();
    await this.record(em, row, row.status, cause, { held_from: to });
  }

  /** Its payment was captured: on to the paid state, or on hold, the state the hold will release to. */
  paid(em: EntityManager, row: E): Promise<void> {
    return this.advance(em, row, this.spec.payment.paid, { actor: null, action: 'paid' });
  }

  private describe(cause: MoveCause): string {
    return `${cause.action.replace(/_/g, ' ')} the ${this.spec.noun}`;
  }

  /** Something done to the row that is not a move of its own (an attached file, a payment): its audit row. */
  record(em: EntityManager, row: E, from: S, cause: MoveCause, details?: Record<string, unknown>): Promise<void> {
    return this.events.raise(em, { kind: 'recorded', noun: this.spec.noun, row, from, to: row.status, cause, details });
  }
}
