import { ForbiddenError, UnauthenticatedError } from '../../shared/errors';
import { AccountStatus, type Account } from './account.entity';
import type { AccountActor, Actor } from './context';
import { authorizePartner, type PartnerOperation } from './partner-permissions';
import { mayPerform, type StaffOperation } from './staff-permissions';
import type { StaffUser } from './staff-user.entity';

/*
 * Who may call an operation, asked by every service before it reads or changes anything: the partner permission
 * table for accounts and members (D27), the staff one for staff (D28).
 */

/** The actor of an account entity already at hand: a test that calls the services without a door. */
export const accountActor = (account: Account): AccountActor => ({
  kind: 'account',
  accountId: account.id,
  status: account.status,
  account,
  member: null,
});

/**
 * Partner operations: an approved account's key or a member's session, whose role the permission table must allow
 * for `operation` (D27). Staff tokens are not account credentials (D13).
 */
export function requireAccount(actor: Actor | null, operation: PartnerOperation): Account {
  return authorizePartner(approvedAccount(actor), operation).account;
}

/** As `requireAccount`, for a path that needs only the account's id (the polled reads). */
export function requireAccountId(actor: Actor | null, operation: PartnerOperation): string {
  return authorizePartner(approvedAccount(actor), operation).accountId;
}

/** The door's own plumbing (rate budgets, idempotency): any approved partner credential, before any operation. */
export function approvedAccount(actor: Actor | null): AccountActor {
  if (actor?.kind !== 'account') throw new UnauthenticatedError();
  if (actor.status !== AccountStatus.APPROVED) throw new ForbiddenError('Account not approved.');
  return actor;
}

/**
 * The session the caller signed in with, to end it: a member's (when the partner table lets their role sign out) or
 * a staff member's. An API key or a long-lived staff token is no session: refused (FORBIDDEN), not ended.
 */
export function requireSession(actor: Actor | null): string {
  if (actor?.kind === 'staff') {
    if (!actor.sessionId)
      throw new ForbiddenError('A staff token is not a session: it ends with deactivation or staff:rotate.');
    return actor.sessionId;
  }
  return authorizePartner(approvedAccount(actor), 'session.sign_out').member!.sessionId;
}

/**
 * Staff operations: a staff token whose role the permission table allows `operation` (D28), or any staff token
 * when no operation is named (a part of an operation already checked); account keys are refused.
 */
export function requireStaff(actor: Actor | null, operation?: StaffOperation): StaffUser {
  if (!actor) throw new UnauthenticatedError();
  if (actor.kind !== 'staff') throw new ForbiddenError('Staff only.');
  if (operation && !mayPerform(actor.staff.role, operation))
    throw new ForbiddenError(`The ${actor.staff.role} role may not do this (${operation}).`);
  return actor.staff;
}
