import { ValidationError } from '../../shared/errors';

/**
 * A transition table: for each state, the states it may move to. Every state change of an area goes
 * through its table, so an illegal move is refused the same way on every path and changes nothing.
 */
export type TransitionTable<S extends string> = Readonly<Record<S, readonly S[]>>;

export function defineTransitions<S extends string>(table: TransitionTable<S>): TransitionTable<S> {
  for (const [from, targets] of Object.entries(table) as [S, readonly S[]][]) {
    for (const to of targets) {
      if (!(to in table)) throw new Error(`Transition ${from} -> ${to} names an unknown state`);
    }
  }
  return Object.freeze(table);
}

export function canTransition<S extends string>(table: TransitionTable<S>, from: S, to: S): boolean {
  return table[from].includes(to);
}

/** Refuses an illegal move as a 422 keyed by `status` (D2), naming the action and the current state. */
export function assertTransition<S extends string>(table: TransitionTable<S>, from: S, to: S, action: string): void {
  if (!canTransition(table, from, to)) {
    throw ValidationError.of('status', `Cannot ${action} while the status is ${from}.`);
  }
}
