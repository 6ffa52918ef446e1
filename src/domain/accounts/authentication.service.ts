import type { EntityManager } from '@mikro-orm/core';
import type { AppEnv } from '../../config/app-config';
import type { AccountActor, Actor } from '../identity/context';
import {
  readAccountRowAndPolled,
  readAccountRowByKeyHash,
  type PolledAnswer,
  type PolledRead,
} from '../identity/account-by-key.queries';
import { hashToken } from '../shared/tokens';
import { StaffUser } from '../identity/staff-user.entity';
import { Account, AccountStatus } from '../identity/account.entity';
import { apiKeyPrefix, STAFF_TOKEN_PREFIX } from '../identity/api-key-prefix';
import { KeyMisses } from './key-misses';
import { MemberSessions } from '../members/member-sessions';
import { SESSION_TOKEN_PREFIX } from '../sign-in/session-lifetime';
import { StaffSessions } from '../staff/staff-sessions';

const BEARER = /^Bearer\s+([A-Za-z0-9_]{1,200})\s*$/i;

export type { PolledAnswer, PolledRead };

/**
 * The caller, and what its credential's look-up read of what it polls: the version, or the answer (each undefined when
 * it did not read it, null when the caller has no such order or booking).
 */
export interface Resolved {
  actor: Actor | null;
  version?: string | null;
  answer?: PolledAnswer | null;
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
   * As `resolve`, for a poll of an order or a booking (D23): an API key's look-up reads what `polled` asks of it in the
   * same statement, so that a poll costs one statement: its version for a conditional request (a 304 reads nothing
   * else), its answer for one that is not. Other credentials leave both undefined, and the caller reads them apart.
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
          const found = await readAccountRowAndPolled(em, hash, polled);
          if (!found) return { actor: null };
          const { row, ...read } = found;
          return { actor: lazyAccountActor(em, row), ...read };
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
