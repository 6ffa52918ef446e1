import { Account, AccountStatus } from '../../src/domain/identity/account.entity';
import { accountActor } from '../../src/domain/identity/guards';
import type { Mover } from '../../src/domain/lifecycle/state-machine';
import { StaffUser } from '../../src/domain/identity/staff-user.entity';

/** The three kinds of mover the guards tell apart: a client (an account's key or member), staff, and the system. */
export const CLIENT: Mover = { actor: accountActor(Object.assign(new Account(), { status: AccountStatus.APPROVED })) };
export const STAFF: Mover = { actor: { kind: 'staff', staff: new StaffUser() } };
export const SYSTEM: Mover = { actor: null };

/** What these helpers read of a table: its states and its moves, without guards. */
interface Moves<S extends string> {
  initial: S;
  states: readonly S[];
  allows(from: S, to: S): boolean;
}

/** Every from x to pair of a table's states, a state to itself included, each named for `it.each`. */
export function everyPair<S extends string>(table: Moves<S>, allowed: readonly (readonly [S, S])[]) {
  const listed = new Set(allowed.map(([from, to]) => `${from}>${to}`));
  return table.states.flatMap((from) => table.states.map((to) => ({ from, to, allowed: listed.has(`${from}>${to}`) })));
}

/** The states the table's moves reach from its initial state, walked breadth first. */
export function reachable<S extends string>(table: Moves<S>): S[] {
  const reached = [table.initial];
  for (const from of reached)
    for (const to of table.states) if (table.allows(from, to) && !reached.includes(to)) reached.push(to);
  return reached;
}
