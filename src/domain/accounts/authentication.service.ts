import type { EntityManager } from '@mikro-orm/core';
import type { AppEnv } from '../../config/app-config';
import type { AccountActor, Actor } from '../identity/context';
import { readAccountRowAndVersion, readAccountRowByKeyHash, type PolledRead } from '../identity/account-by-key.queries';
import { hashToken } from '../shared/tokens';
import { StaffUser } from '../identity/staff-user.entity';
import { Account, AccountStatus } from '../identity/account.entity';
import { apiKeyPrefix, STAFF_TOKEN_PREFIX } from '../identity/api-key-prefix';
import { KeyMisses } from './key-misses';
import { MemberSessions } from '../members/member-sessions';
import { SESSION_TOKEN_PREFIX } from '../sign-in/session-lifetime';
import { StaffSessions } from '../staff/staff-sessions';

const BEARER = /^Bearer\s+([A-Za-z0-9_]{1,200})\s*$/i;

export type { PolledRead };

/** The caller, and the version of what it polls when its credential's look-up read it (undefined when it did not). */
export interface Resolved {
  actor: Actor | null;
  version?: string | null;
}

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
    return (await this.resolvePolling(em, authorization)).actor;
  }

  /**
   * As `resolve`, for a conditional read of an order or a booking (D23): an API key's look-up reads that resource's
   * version in the same statement, so that a 304 costs one statement. Other credentials leave `version` undefined,
   * and the caller reads it apart.
   */
  async resolvePolling(em: EntityManager, authorization: string | undefined, polled?: PolledRead): Promise<Resolved> {
    const token = authorization?.match(BEARER)?.[1];
    const lookUp = token && this.lookUp(token, polled);
    // A key of the other deployment, or anything else: not a credential here (D1).
    if (!lookUp) return { actor: null };
    const hash = hashToken(token);
    if (this.misses.has(hash)) return { actor: null };
    const resolved = await lookUp(em, hash);
    if (!resolved.actor) this.misses.add(hash);
    return resolved;
  }

  private lookUp(
    token: string,
    polled?: PolledRead,
  ): ((em: EntityManager, hash: string) => Promise<Resolved>) | undefined {
    if (token.startsWith(apiKeyPrefix(this.env))) {
      // Every request of every key runs this (D23): a prepared statement, and no entity until a service wants one.
      return async (em, hash) => {
        if (polled) {
          const found = await readAccountRowAndVersion(em, hash, polled);
          return found ? { actor: lazyAccountActor(em, found.row), version: found.version } : { actor: null };
        }
        const row = await readAccountRowByKeyHash(em, hash);
        return { actor: row ? lazyAccountActor(em, row) : null };
      };
    }
    if (token.startsWith(SESSION_TOKEN_PREFIX)) {
      // Members' sessions first: they are the ones polled all day, in one statement (D23).
      return async (em, hash) => ({
        actor: (await this.memberSessions.resolve(em, hash)) ?? (await this.staffSessions.resolve(em, hash)),
      });
    }
    if (token.startsWith(STAFF_TOKEN_PREFIX)) {
      return async (em, hash) => {
        // A deactivated staff member's token is no credential from that moment (D13).
        const staff = await em.findOne(StaffUser, { tokenHash: hash, deactivatedAt: null });
        return { actor: staff ? { kind: 'staff', staff } : null };
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
