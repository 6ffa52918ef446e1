import { expect } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  endAccountSessions,
  memberSessionStatement,
  readMemberSession,
} from '../../../src/domain/sign-in/member-sessions.queries';
import { Account, AccountStatus } from '../../../src/domain/identity/account.entity';
import { AccountMember, MEMBER_SUBJECT, MemberRole, MemberStatus } from '../../../src/domain/identity/member.entity';
import { SESSION_IDLE_MS } from '../../../src/domain/sign-in/session-lifetime';
import { Session } from '../../../src/domain/sign-in/session.entity';
import { hashToken } from '../../../src/domain/shared/tokens';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount } from '../../helpers/rows';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

let tokens = 0;

/** A live member of `account` (or one in `status`) signed in with a session of `fields`: its token's hash. */
async function signedIn(
  em: EntityManager,
  account: Account,
  status = MemberStatus.ACTIVE,
  fields: Partial<Session> = {},
) {
  const member = Object.assign(new AccountMember(), {
    account,
    email: `member-${++tokens}@example.test`,
    name: 'Ana Ruiz',
    role: MemberRole.MEMBER,
    status,
  });
  const tokenHash = hashToken(`ltk_session_${tokens}`);
  const session = Object.assign(
    new Session(),
    { tokenHash, subjectKind: MEMBER_SUBJECT, subjectId: member.id, expiresAt: new Date(Date.now() + 86_400_000) },
    fields,
  );
  await em.persist([member, session]).flush();
  return { member, session, tokenHash };
}

it('names the session, the member and every stored column of the account', () => {
  expect(memberSessionStatement(db.em()).sql).toMatchSnapshot();
});

it("finds a live member's session with its member and account, in one statement", async () => {
  const account = await insertAccount(db.em());
  const { member, session, tokenHash } = await signedIn(db.em(), account);
  db.statements.length = 0;
  const em = db.em();
  const found = await readMemberSession(em, tokenHash);
  expect(db.statements).toHaveLength(1);
  expect(found).toEqual({
    account: expect.objectContaining({ id: account.id, status: AccountStatus.APPROVED }),
    member: { id: member.id, name: 'Ana Ruiz', email: member.email, role: MemberRole.MEMBER },
    sessionId: session.id,
    sessionLastUsedAt: session.lastUsedAt,
  });
  expect(em.map(Account, found!.account)).toEqual(await db.em().findOneOrFail(Account, { id: account.id }));
});

it('finds no session that ended, expired or idled, none of a removed member, none of an account not approved', async () => {
  const approved = await insertAccount(db.em());
  const suspended = await insertAccount(db.em(), { status: AccountStatus.SUSPENDED });
  const dead = [
    await signedIn(db.em(), approved, MemberStatus.ACTIVE, { endedAt: new Date() }),
    await signedIn(db.em(), approved, MemberStatus.ACTIVE, { expiresAt: new Date(Date.now() - 1000) }),
    await signedIn(db.em(), approved, MemberStatus.ACTIVE, {
      lastUsedAt: new Date(Date.now() - SESSION_IDLE_MS - 1000),
    }),
    await signedIn(db.em(), approved, MemberStatus.REMOVED),
    await signedIn(db.em(), suspended),
  ];
  for (const { tokenHash } of dead) expect(await readMemberSession(db.em(), tokenHash)).toBeNull();
  expect(
    await readMemberSession(db.em(), (await signedIn(db.em(), approved, MemberStatus.INVITED)).tokenHash),
  ).not.toBeNull();
});

it("ends every live session of the account's members in the caller's transaction, and no other account's", async () => {
  const [suspending, other] = [await insertAccount(db.em()), await insertAccount(db.em())];
  const mine = [await signedIn(db.em(), suspending), await signedIn(db.em(), suspending)];
  const theirs = await signedIn(db.em(), other);
  const rolledBack = db.em().transactional(async (em) => {
    await endAccountSessions(em, suspending.id);
    throw new Error('the suspension failed');
  });
  await expect(rolledBack).rejects.toThrow('the suspension failed');
  expect(await readMemberSession(db.em(), mine[0].tokenHash)).not.toBeNull();
  await db.em().transactional((em) => endAccountSessions(em, suspending.id));
  for (const { tokenHash } of mine) expect(await readMemberSession(db.em(), tokenHash)).toBeNull();
  expect(await readMemberSession(db.em(), theirs.tokenHash)).not.toBeNull();
});
