import type { EntityManager } from '@mikro-orm/core';
import { readMemberSession, type MemberSessionRow } from '../../db/queries/member-sessions';
import { Account, AccountStatus } from '../accounts/account.entity';
import type { AccountActor } from '../shared/context';
import { SESSION_TOUCH_MS } from '../sign-in/session-lifetime';
import { Session } from '../sign-in/session.entity';

/** Finds the actor of a member's session token hash, and marks the session used. */
export class MemberSessions {
  async resolve(em: EntityManager, tokenHash: string): Promise<AccountActor | null> {
    const found = await readMemberSession(em, tokenHash);
    if (!found) return null;
    if (Date.now() - found.sessionLastUsedAt.getTime() > SESSION_TOUCH_MS) {
      await em.fork().nativeUpdate(Session, { id: found.sessionId }, { lastUsedAt: new Date() });
    }
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
