import type { EntityManager } from '@mikro-orm/core';
import type { AppEnv } from '../../config/app-config';
import type { AccountActor, Actor } from '../shared/context';
import { ForbiddenError, UnauthenticatedError } from '../../shared/errors';
import { readAccountRowByKeyHash } from '../../db/queries/account-by-key';
import { hashToken } from '../shared/tokens';
import { mayPerform, type StaffOperation } from '../staff/staff-permissions';
import { StaffUser } from '../staff/staff-user.entity';
import { Account, AccountStatus } from './account.entity';
import { apiKeyPrefix, STAFF_TOKEN_PREFIX } from './api-key-prefix';
import { KeyMisses } from './key-misses';
import { MemberSessions } from '../members/member-sessions';
import { authorizePartner, type PartnerOperation } from '../members/partner-permissions';
import { SESSION_TOKEN_PREFIX } from '../sign-in/session-lifetime';
import { StaffSessions } from '../staff/staff-sessions';

const BEARER = /^Bearer\s+([A-Za-z0-9_]{1,200})\s*$/i;

/**
 * Turns an Authorization header (an API key, a member's session, a staff token) into an actor: one indexed look-up by
 * hash, nothing else, and none at all for a token that named no one a moment ago (KeyMisses, D24).
 */
export class AuthenticationService {
  constructor(
    private readonly env: AppEnv,
    private readonly misses = new KeyMisses(),
    private readonly memberSessions = new MemberSessions(),
    private readonly staffSessions = new StaffSessions(),
  ) {}

  async resolve(em: EntityManager, authorization: string | undefined): Promise<Actor | null> {
    const token = authorization?.match(BEARER)?.[1];
    const lookUp = token && this.lookUp(token);
    // A key of the other deployment, or anything else: not a credential here (D1).
    if (!lookUp) return null;
    const hash = hashToken(token);
    if (this.misses.has(hash)) return null;
    const actor = await lookUp(em, hash);
    if (!actor) this.misses.add(hash);
    return actor;
  }

  private lookUp(token: string): ((em: EntityManager, hash: string) => Promise<Actor | null>) | undefined {
    if (token.startsWith(apiKeyPrefix(this.env))) {
      return async (em, hash) => {
        // Every request of every key runs this (D23): a prepared statement, and no entity until a service wants one.
        const row = await readAccountRowByKeyHash(em, hash);
        return row ? lazyAccountActor(em, row) : null;
      };
    }
    if (token.startsWith(SESSION_TOKEN_PREFIX)) {
      // Members' sessions first: they are the ones polled all day, in one statement (D23).
      return async (em, hash) =>
        (await this.memberSessions.resolve(em, hash)) ?? (await this.staffSessions.resolve(em, hash));
    }
    if (token.startsWith(STAFF_TOKEN_PREFIX)) {
      return async (em, hash) => {
        // A deactivated staff member's token is no credential from that moment (D13).
        const staff = await em.findOne(StaffUser, { tokenHash: hash, deactivatedAt: null });
        return staff ? { kind: 'staff', staff } : null;
      };
    }
    return undefined;
  }
}

function lazyAccountActor(em: EntityManager, row: Record<string, unknown>): AccountActor {
  let account: Account | undefined;
  return {
    kind: 'account',
    accountId: row.id as string,
    status: row.status as AccountStatus,
    get account() {
      return (account ??= em.map(Account, row));
    },
    member: null,
  };
}

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
