import type { EntityManager } from '@mikro-orm/core';
import type { Account, AccountStatus } from '../accounts/account.entity';
import type { StaffUser } from '../staff/staff-user.entity';

/** Who is calling: an account's API key or a staff token. */
export type Actor = AccountActor | { kind: 'staff'; staff: StaffUser };

/**
 * An account's key. Its id and status are read at authentication; the `Account` entity is mapped into the request's
 * EntityManager only when a service asks for it, so a polled read (D23) builds no entity at all.
 */
export interface AccountActor {
  kind: 'account';
  accountId: string;
  status: AccountStatus;
  readonly account: Account;
}

/**
 * Every service method takes the context first: this request's own EntityManager fork, its id for logs
 * and errors, and the actor (null for the command line and for public catalog calls).
 */
export interface Ctx {
  em: EntityManager;
  requestId: string;
  actor: Actor | null;
}
