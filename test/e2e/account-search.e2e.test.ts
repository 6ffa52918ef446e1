import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { AccountMembersOfDocument, CreateAccountDocument, SearchAccountsDocument } from '../graphql/generated';
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { memberSession, signInAs } from '../helpers/members';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The console's account screen on the API (docs/decisions.md D34): `accounts(search:)` finds a part of the name or
 * the e-mail through their trigram indexes, paged in the database among 100,000 accounts; `accountMembers` lists an
 * account's people to the desk, not to a translator.
 */
let t: TestApp;
let desk: string;
const statements: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ workers: false, onQuery: (sql) => void statements.push(sql) });
  desk = await createStaffToken(t, StaffRole.DESK);
  const connection = t.orm.em.fork().getConnection();
  await connection.execute(
    `INSERT INTO accounts (id, name, email, created_at, updated_at)
     SELECT gen_random_uuid(), 'Firm ' || substr(md5(n::text), 1, 12), substr(md5('e' || n), 1, 12) || '@firms.test',
       now() - n * interval '1 minute', now()
     FROM generate_series(1, 100000) n`,
  );
  // As autovacuum leaves a table after a load: the trigram indexes' pending entries merged, their statistics fresh.
  await connection.execute('VACUUM ANALYZE accounts');
}, 60_000);
afterAll(() => t.close());

const search = async (variables: { search?: string; page?: number; perPage?: number }) => {
  const res = await t.gql(SearchAccountsDocument, variables, desk);
  expect(res.errors).toBeUndefined();
  return res.data!.accounts;
};

it('finds a part of the name or the e-mail, % and _ taken literally, newest first and paged', async () => {
  const created = await t.gql(
    CreateAccountDocument,
    { name: 'Quillfeather 100% Legal_Co', email: 'intake-desk@quillfeather.test' },
    await createStaffToken(t),
  );
  expect(created.errors).toBeUndefined();
  expect((await search({ search: 'feather 100%' })).items.map((a) => a.name)).toEqual(['Quillfeather 100% Legal_Co']);
  expect((await search({ search: 'INTAKE-DESK@' })).items.map((a) => a.name)).toEqual(['Quillfeather 100% Legal_Co']);
  expect((await search({ search: '100%_Legal' })).pageInfo.total).toBe(0);
  const [first, second] = [
    await search({ search: '@FIRMS.test', perPage: 2 }),
    await search({ search: '@firms.test', page: 2, perPage: 2 }),
  ];
  expect([first.pageInfo.total, second.pageInfo.total]).toEqual([100_000, 100_000]);
  const names = [...first.items, ...second.items].map((a) => a.name);
  expect(new Set(names).size).toBe(4);
});

it('reads the search through the trigram indexes, not the table', async () => {
  statements.length = 0;
  // One account's e-mail among 100,000, one the planner guesses common: a bound of its histogram, which makes it guess
  // that a hundredth of the table matches, and walk the sort's index for them when left to itself.
  const [{ email }] = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ email: string }[]>(
      `SELECT (histogram_bounds::text::text[])[50] AS email FROM pg_stats WHERE tablename = 'accounts' AND attname = 'email'`,
    );
  expect((await search({ search: email.slice(2, 10) })).pageInfo.total).toBeGreaterThanOrEqual(1);
  const plan = await planOfLast(/ilike/i);
  expect(plan).toMatch(/Bitmap Index Scan on accounts_email_trgm/);
  expect(plan).toMatch(/Bitmap Index Scan on accounts_name_trgm/);
  expect(plan).not.toMatch(/Seq Scan on accounts/);
});

it('pages the list, of one status or all, through its sort index', async () => {
  statements.length = 0;
  await search({ page: 3, perPage: 25 });
  expect(await planOfLast(/FROM accounts a/)).toMatch(/Index (Only )?Scan Backward using accounts_created /);
  statements.length = 0;
  const approved = await t.gql(SearchAccountsDocument, { status: 'APPROVED', perPage: 25 }, desk);
  expect(approved.errors).toBeUndefined();
  expect(await planOfLast(/FROM accounts a/)).toMatch(/Index (Only )?Scan Backward using accounts_status_created /);
});

/** The plan of the last page statement (`limit`) the ORM ran that matches `pattern`. */
async function planOfLast(pattern: RegExp): Promise<string> {
  const statement = statements.filter((sql) => pattern.test(sql) && /limit/i.test(sql)).pop()!;
  const rows = await t.orm.em.fork().getConnection().execute<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${statement}`);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

it('lists an account’s members to the desk, and refuses a translator and an unknown account', async () => {
  const admin = await createStaffToken(t);
  const firm = await createApprovedAccount(t, admin);
  // The account's first admin (its own e-mail) signs in and invites a member, who signs in too.
  const adminSession = await signInAs(t, admin, firm.email);
  const member = await memberSession(t, admin, adminSession, 'MEMBER');
  const members = await t.gql(AccountMembersOfDocument, { accountId: firm.id }, desk);
  expect(members.data!.accountMembers.items.map((m) => [m.email, m.role])).toEqual([
    [firm.email, 'ADMIN'],
    [member.email, 'MEMBER'],
  ]);
  const translator = await createStaffToken(t, StaffRole.TRANSLATOR);
  const refused = await t.gql(AccountMembersOfDocument, { accountId: firm.id }, translator);
  expect(refused.errors![0].extensions!.code).toBe('FORBIDDEN');
  const unknown = await t.gql(AccountMembersOfDocument, { accountId: '00000000-0000-4000-8000-000000000000' }, desk);
  expect(unknown.errors![0].extensions!.code).toBe('NOT_FOUND');
});
