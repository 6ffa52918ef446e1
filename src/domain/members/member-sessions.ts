import type { EntityManager } from '@mikro-orm/core';
import { readMemberSession, type MemberSessionRow } from '../sign-in/member-sessions.queries';
import { Account, AccountStatus } from '../identity/account.entity';
import type { AccountActor } from '../identity/context';
import { touchSession } from '../sign-in/touch-session';

/** Finds the actor of a member's session token hash, and marks the session used. */
export class MemberSessions {
  async resolve(em: EntityManager, tokenHash: string): Promise<AccountActor | null> {
    const found = await readMemberSession(em, tokenHash);
    if (!found) return null;
    await touchSession(em, { id: found.sessionId, lastUsedAt: found.sessionLastUsedAt });
    return sessionActor(em, found);
  }
}

function sessionActor(em: EntityManager, { account: accountRow, member, sessionId }: MemberSessionRow): AccountActor {
  let account: Account | undefined;
  return {
    kind: 'account',
    accountId: accountRow.id as string,
    status: accountRow.status as AccountStatus,
    get account() {
      return (account ??= em.map(Account, accountRow));
    },
    member: { ...member, sessionId },
  };
}
