import type { EntityManager } from '@mikro-orm/core';
import type { Account, AccountStatus } from './account.entity';
import type { MemberRole } from './member.entity';
import type { StaffUser } from './staff-user.entity';

/** Who is calling: an account's API key or member session, staff, or the operator at the command line. */
export type Actor = AccountActor | StaffActor | OperatorActor;

/** A staff member, by their long-lived token (`ltk_staff_`, for tools) or a signed-in session (D28). */
export interface StaffActor {
  kind: 'staff';
  staff: StaffUser;
  /** The session signed in with a code; absent for the long-lived token. */
  sessionId?: string;
}

/**
 * Whoever runs the command line (`npm run cli`) on the deployment: the one caller who may create the first admin
 * or give a staff member a new token by e-mail. Named, not implied by a null actor, because the doors' public
 * calls have no actor either.
 */
export interface OperatorActor {
  kind: 'operator';
}
export const OPERATOR: OperatorActor = { kind: 'operator' };

/**
 * An account's key, or a member's session (D27). Its id and status are read at authentication; the `Account` entity
 * is mapped into the request's EntityManager only when a service asks for it, so a polled read (D23) builds no
 * entity at all.
 */
export interface AccountActor {
  kind: 'account';
  accountId: string;
  status: AccountStatus;
  readonly account: Account;
  /** The signed-in member, with the role the permission table applies; null for the API key. */
  member: SessionMember | null;
}

/** A member as its session names it. */
export interface SessionMember {
  id: string;
  name: string;
  email: string;
  role: MemberRole;
  sessionId: string;
}

/**
 * Every service method takes the context first: this request's own EntityManager fork, its id for logs
 * and errors, and the actor (null for public calls, such as the catalog's).
 */
export interface Ctx {
  em: EntityManager;
  requestId: string;
  actor: Actor | null;
}
