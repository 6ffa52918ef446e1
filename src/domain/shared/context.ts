import type { EntityManager } from '@mikro-orm/core';
import type { Account } from '../accounts/account.entity';
import type { StaffUser } from '../staff/staff-user.entity';

/** Who is calling: an account's API key or a staff token. */
export type Actor = { kind: 'account'; account: Account } | { kind: 'staff'; staff: StaffUser };

/**
 * Every service method takes the context first: this request's own EntityManager fork, its id for logs
 * and errors, and the actor (null for the command line and for public catalog calls).
 */
export interface Ctx {
  em: EntityManager;
  requestId: string;
  actor: Actor | null;
}
