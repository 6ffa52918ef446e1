import type { EntityManager } from '@mikro-orm/core';
import { Account, AccountStatus } from '../identity/account.entity';
import { MEMBER_SUBJECT, MemberStatus, type MemberRole } from '../identity/member.entity';
import { SESSION_IDLE_MS } from './session-lifetime';
import { runPrepared, runSql, type PreparedStatement, type SqlRow } from '../../db/orm-driver';
import { scalarColumns } from '../../db/entity-columns';

let statement: PreparedStatement | undefined;

/**
 * `$1` a session token's hash: the session, its member and the member's account in one statement (D27). Only a live
 * session of a live member of an approved account is found: signing out, removal and suspension answer 401 from the
 * next request on.
 */
export function memberSessionStatement(em: EntityManager): PreparedStatement {
  return (statement ??= {
    name: 'member_session_read',
    sql: `SELECT ${scalarColumns(em, Account, 'a').join(', ')}, m.id AS member_id, m.name AS member_name, m.email AS member_email, m.role AS member_role, s.id AS session_id, s.last_used_at AS session_last_used_at FROM sessions s
      JOIN account_members m ON s.subject_kind = '${MEMBER_SUBJECT}' AND m.id = s.subject_id
      JOIN accounts a ON a.id = m.account_id
      WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > now()
        AND s.last_used_at > now() - interval '${SESSION_IDLE_MS / 1000} seconds'
        AND m.status <> '${MemberStatus.REMOVED}' AND a.status = '${AccountStatus.APPROVED}'`,
  });
}

export interface MemberSessionRow {
  /** The account's columns, as `em.map(Account, row)` takes them. */
  account: SqlRow;
  member: { id: string; name: string; email: string; role: MemberRole };
  sessionId: string;
  sessionLastUsedAt: Date;
}

/** The live member session of a token's hash, with its member and account, or none. */
export async function readMemberSession(em: EntityManager, tokenHash: string): Promise<MemberSessionRow | null> {
  const { rows, date } = await runPrepared(em, memberSessionStatement(em), [tokenHash]);
  if (!rows[0]) return null;
  const { member_id, member_name, member_email, member_role, session_id, session_last_used_at, ...account } = rows[0];
  return {
    account,
    member: {
      id: member_id as string,
      name: member_name as string,
      email: member_email as string,
      role: member_role as MemberRole,
    },
    sessionId: session_id as string,
    sessionLastUsedAt: date(session_last_used_at)!,
  };
}

/** Ends every live session of the account's members at once (D27: suspension), in the caller's transaction. */
export async function endAccountSessions(em: EntityManager, accountId: string): Promise<void> {
  await runSql(
    em,
    `update "sessions" set "ended_at" = now() where "ended_at" is null and "subject_kind" = ? and "subject_id" in (select "id" from "account_members" where "account_id" = ?)`,
    [MEMBER_SUBJECT, accountId],
  );
}
