import { ReferenceKind, type EntityManager } from '@mikro-orm/core';
import { Account, AccountStatus } from '../accounts/account.entity';
import type { AccountActor } from '../shared/context';
import { readRow, type PreparedRead, type Row } from '../shared/raw-read';
import { SESSION_IDLE_MS, SESSION_TOUCH_MS } from '../sign-in/session-lifetime';
import { Session } from '../sign-in/session.entity';
import type { MemberRole } from './member.entity';
import { MEMBER_SUBJECT, MemberStatus } from './member.entity';

const MEMBER_COLUMNS = `m.id AS member_id, m.name AS member_name, m.email AS member_email, m.role AS member_role, s.id AS session_id, s.last_used_at AS session_last_used_at`;

/**
 * A member's session, its member and account in one statement (D27). Only a live session of a live member of an
 * approved account is found: signing out, removal and suspension answer 401 from the next request on.
 */
function memberSessionRead(em: EntityManager): PreparedRead {
  const accountColumns = em
    .getMetadata()
    .get(Account)
    .props.filter((prop) => prop.kind === ReferenceKind.SCALAR && prop.persist !== false)
    .flatMap((prop) => prop.fieldNames.map((column) => `a."${column}"`));
  return {
    name: 'member_session_read',
    sql: `SELECT ${accountColumns.join(', ')}, ${MEMBER_COLUMNS} FROM sessions s
      JOIN account_members m ON s.subject_kind = '${MEMBER_SUBJECT}' AND m.id = s.subject_id
      JOIN accounts a ON a.id = m.account_id
      WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > now()
        AND s.last_used_at > now() - interval '${SESSION_IDLE_MS / 1000} seconds'
        AND m.status <> '${MemberStatus.REMOVED}' AND a.status = '${AccountStatus.APPROVED}'`,
  };
}

/** Finds the actor of a member's session token hash, and marks the session used. */
export class MemberSessions {
  private read?: PreparedRead;

  async resolve(em: EntityManager, tokenHash: string): Promise<AccountActor | null> {
    const { row, date } = await readRow(em, (this.read ??= memberSessionRead(em)), [tokenHash]);
    if (!row) return null;
    const sessionId = row.session_id as string;
    const lastUsedAt = date(row.session_last_used_at)!;
    if (Date.now() - lastUsedAt.getTime() > SESSION_TOUCH_MS) {
      await em.fork().nativeUpdate(Session, { id: sessionId }, { lastUsedAt: new Date() });
    }
    return sessionActor(em, row, sessionId);
  }
}

function sessionActor(em: EntityManager, row: Row, sessionId: string): AccountActor {
  const { member_id, member_name, member_email, member_role, session_id, session_last_used_at, ...accountRow } = row;
  let account: Account | undefined;
  return {
    kind: 'account',
    accountId: accountRow.id as string,
    status: accountRow.status as AccountStatus,
    get account() {
      return (account ??= em.map(Account, accountRow));
    },
    member: { id: member_id as string, name: member_name as string, email: member_email as string, role: member_role as MemberRole, sessionId },
  };
}
