import type { EntityManager } from '@mikro-orm/core';
import type { AppEnv } from '../../config/app-config';
import type { Actor } from '../shared/context';
import { ForbiddenError, UnauthenticatedError } from '../../shared/errors';
import { hashToken } from '../shared/tokens';
import { StaffRole, StaffUser } from '../staff/staff-user.entity';
import { Account, AccountStatus } from './account.entity';
import { apiKeyPrefix, STAFF_TOKEN_PREFIX } from './api-key-prefix';

const BEARER = /^Bearer\s+([A-Za-z0-9_]{1,200})\s*$/i;

/** Turns an Authorization header into an actor: one indexed look-up by hash, nothing else. */
export class AuthenticationService {
  constructor(private readonly env: AppEnv) {}

  async resolve(em: EntityManager, authorization: string | undefined): Promise<Actor | null> {
    const token = authorization?.match(BEARER)?.[1];
    if (!token) return null;
    if (token.startsWith(apiKeyPrefix(this.env))) {
      // Every request of every key runs this (D23): the statement is written out rather than built each time.
      const [row] = await em.getConnection().execute<Record<string, unknown>[]>('select * from "accounts" where "api_key_hash" = ?', [hashToken(token)]);
      return row ? { kind: 'account', account: em.map(Account, row) } : null;
    }
    if (token.startsWith(STAFF_TOKEN_PREFIX)) {
      // A deactivated staff member's token is no credential from that moment (D13).
      const staff = await em.findOne(StaffUser, { tokenHash: hashToken(token), deactivatedAt: null });
      return staff ? { kind: 'staff', staff } : null;
    }
    // A key of the other deployment, or anything else: not a credential here (D1).
    return null;
  }
}

/** Partner operations: an approved account's key. Staff tokens are not account credentials (D13). */
export function requireAccount(actor: Actor | null): Account {
  if (actor?.kind !== 'account') throw new UnauthenticatedError();
  if (actor.account.status !== AccountStatus.APPROVED) throw new ForbiddenError('Account not approved.');
  return actor.account;
}

/** Staff operations: a staff token, with the admin role where asked; account keys are refused. */
export function requireStaff(actor: Actor | null, role: StaffRole = StaffRole.STAFF): StaffUser {
  if (!actor) throw new UnauthenticatedError();
  if (actor.kind !== 'staff') throw new ForbiddenError('Staff only.');
  if (role === StaffRole.ADMIN && actor.staff.role !== StaffRole.ADMIN) throw new ForbiddenError('Admins only.');
  return actor.staff;
}
