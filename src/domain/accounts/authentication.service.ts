import { ReferenceKind, type EntityManager } from '@mikro-orm/core';
import type { AppEnv } from '../../config/app-config';
import type { AccountActor, Actor } from '../shared/context';
import { ForbiddenError, UnauthenticatedError } from '../../shared/errors';
import { readRow, type PreparedRead, type Row } from '../shared/raw-read';
import { hashToken } from '../shared/tokens';
import { StaffRole, StaffUser } from '../staff/staff-user.entity';
import { Account, AccountStatus } from './account.entity';
import { apiKeyPrefix, STAFF_TOKEN_PREFIX } from './api-key-prefix';

const BEARER = /^Bearer\s+([A-Za-z0-9_]{1,200})\s*$/i;

/** Turns an Authorization header into an actor: one indexed look-up by hash, nothing else. */
export class AuthenticationService {
  private byKeyHash?: PreparedRead;

  constructor(private readonly env: AppEnv) {}

  async resolve(em: EntityManager, authorization: string | undefined): Promise<Actor | null> {
    const token = authorization?.match(BEARER)?.[1];
    if (!token) return null;
    if (token.startsWith(apiKeyPrefix(this.env))) {
      // Every request of every key runs this (D23): a prepared statement, and no entity until a service wants one.
      const { row } = await readRow(em, (this.byKeyHash ??= accountByKeyHash(em)), [hashToken(token)]);
      return row ? lazyAccountActor(em, row) : null;
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

/** The account's columns by name, as the entity maps them (a prepared statement names its columns). */
function accountByKeyHash(em: EntityManager): PreparedRead {
  const columns = em
    .getMetadata()
    .get(Account)
    .props.filter((prop) => prop.kind === ReferenceKind.SCALAR && prop.persist !== false)
    .flatMap((prop) => prop.fieldNames.map((column) => `"${column}"`));
  return { name: 'account_by_key_hash', sql: `select ${columns.join(', ')} from "accounts" where "api_key_hash" = $1` };
}

function lazyAccountActor(em: EntityManager, row: Row): AccountActor {
  let account: Account | undefined;
  return {
    kind: 'account',
    accountId: row.id as string,
    status: row.status as AccountStatus,
    get account() {
      return (account ??= em.map(Account, row));
    },
  };
}

/** The actor of an account entity already at hand: a test that calls the services without a door. */
export const accountActor = (account: Account): AccountActor => ({ kind: 'account', accountId: account.id, status: account.status, account });

/** Partner operations: an approved account's key. Staff tokens are not account credentials (D13). */
export function requireAccount(actor: Actor | null): Account {
  return approvedAccount(actor).account;
}

/** As `requireAccount`, for a path that needs only the account's id (the polled reads, rate budgets). */
export function requireAccountId(actor: Actor | null): string {
  return approvedAccount(actor).accountId;
}

function approvedAccount(actor: Actor | null): AccountActor {
  if (actor?.kind !== 'account') throw new UnauthenticatedError();
  if (actor.status !== AccountStatus.APPROVED) throw new ForbiddenError('Account not approved.');
  return actor;
}

/** Staff operations: a staff token, with the admin role where asked; account keys are refused. */
export function requireStaff(actor: Actor | null, role: StaffRole = StaffRole.STAFF): StaffUser {
  if (!actor) throw new UnauthenticatedError();
  if (actor.kind !== 'staff') throw new ForbiddenError('Staff only.');
  if (role === StaffRole.ADMIN && actor.staff.role !== StaffRole.ADMIN) throw new ForbiddenError('Admins only.');
  return actor.staff;
}
