import { ValidationError } from '../../shared/errors';
import type { Actor } from '../identity/context';

/** For each state, the states it may move to. */
export type Moves<S extends string> = Readonly<Record<S, readonly S[]>>;

/**
 * Why a move or an action is refused: a message under `status`, or one under the field the caller has to change
 * (`scheduled_at`, `shipping_address`). Either way a 422 (D2).
 */
export type Refusal = string | { field: string; message: string };

/** Who asks for a move, and the moment rules of time are read at: a sweep's own clock, or now when absent. */
export interface Mover {
  actor: Actor | null;
  at?: Date;
}

/** Says why a move the table allows is refused for this row and this mover; undefined lets it happen. */
export type Guard<S extends string, R> = (from: S, to: S, row: R, by: Mover) => Refusal | undefined;

/** Says why work done on a row without moving it (a note, a shipment) is refused in the state it is in. */
export type ActionRule<R> = (row: R) => Refusal | undefined;

export interface TransitionSpec<S extends string, R, A extends string> {
  /** Where every row starts; every state must be reachable from it. */
  initial: S;
  moves: Moves<S>;
  /** Vendure's `onTransitionStart` returning a string: who may make an allowed move, and when. */
  guard?: Guard<S, R>;
  /** What may be done to a row without moving it, by name, and in which states. */
  actions?: Readonly<Record<A, ActionRule<R>>>;
}

/** The words of a refusal by state, the same on every path: `Cannot cancel the order while the status is completed.` */
export const cannot = (describe: string, status: string) => `Cannot ${describe} while the status is ${status}.`;

/** An action allowed only in `states`, refused elsewhere with `cannot(describe, status)`. */
export const onlyIn =
  <S extends string>(states: readonly S[], describe: string): ActionRule<{ status: S }> =>
  (row) =>
    states.includes(row.status) ? undefined : cannot(describe, row.status);

export const refusalMessage = (refusal: Refusal) => (typeof refusal === 'string' ? refusal : refusal.message);

export function refused(refusal: Refusal): ValidationError {
  return typeof refusal === 'string'
    ? ValidationError.of('status', refusal)
    : ValidationError.of(refusal.field, refusal.message);
}

/**
 * An area's transition table and every rule about its states: the moves, the guard that may refuse an allowed
 * move, and the actions allowed in place. Every state change and every state-dependent step of an area asks it,
 * so a refusal reads the same on every path and changes nothing.
 */
export class TransitionTable<S extends string, R extends { status: S }, A extends string = never> {
  readonly initial: S;
  readonly states: readonly S[];
  /** The states with no way out (completed, cancelled). */
  readonly terminal: readonly S[];

  constructor(private readonly spec: TransitionSpec<S, R, A>) {
    this.initial = spec.initial;
    this.states = Object.keys(spec.moves) as S[];
    this.terminal = this.states.filter((state) => spec.moves[state].length === 0);
  }

  /** The table alone, with no guard. */
  allows(from: S, to: S): boolean {
    return this.spec.moves[from].includes(to);
  }

  /** Why `row` may not move `from` -> `to` (refused by the table, then by the guard); undefined when it may. */
  refusal(from: S, to: S, row: R, by: Mover, describe: string): Refusal | undefined {
    if (!this.allows(from, to)) return cannot(describe, from);
    return this.spec.guard?.(from, to, row, by);
  }

  /** Refuses the move as a 422, naming what was asked (`cancel the order`) and the state it was asked in. */
  assertMove(from: S, to: S, row: R, by: Mover, describe: string): void {
    const refusal = this.refusal(from, to, row, by, describe);
    if (refusal !== undefined) throw refused(refusal);
  }

  actionRefusal(action: A, row: R): Refusal | undefined {
    return (this.spec.actions as Record<A, ActionRule<R>>)[action](row);
  }

  assertAction(action: A, row: R): void {
    const refusal = this.actionRefusal(action, row);
    if (refusal !== undefined) throw refused(refusal);
  }
}

/**
 * Builds a table, checked when its module loads: every move names a known state, and every state can be reached
 * from the initial one.
 */
export function defineTransitions<S extends string, R extends { status: S }, A extends string = never>(
  spec: TransitionSpec<S, R, A>,
): TransitionTable<S, R, A> {
  const { moves, initial } = spec;
  for (const [from, targets] of Object.entries(moves) as [S, readonly S[]][]) {
    for (const to of targets) {
      if (!(to in moves)) throw new Error(`Transition ${from} -> ${to} names an unknown state`);
    }
  }
  if (!(initial in moves)) throw new Error(`The initial state ${initial} is not in the table`);
  const reached = new Set<S>([initial]);
  for (const state of reached) for (const to of moves[state]) reached.add(to);
  const unreachable = (Object.keys(moves) as S[]).filter((state) => !reached.has(state));
  if (unreachable.length) throw new Error(`No move reaches ${unreachable.join(', ')} from ${initial}`);
  Object.freeze(moves);
  return new TransitionTable(spec);
}
