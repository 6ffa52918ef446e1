import {
  ApproveAccountDocument,
  CreateAccountDocument,
  CreateStaffUserDocument,
  InviteMemberDocument,
  StaffMeDocument,
  ViewerDocument,
} from '../graphql/generated';
import { pdf } from '../helpers/documents';
import { createApprovedAccount, createPendingAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { gqlRaw } from '../helpers/graphql-raw';
import { codeMailedTo, signInAs, uniqueEmail } from '../helpers/members';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 33 / D36: an e-mail is one identity. A partner admin cannot capture a future client's or a staff member's
 * sign-in, learns nothing about other accounts from a refusal, and cannot lock anyone out of signing in.
 */
let t: TestApp;
let staff: string;
let firmA: TestAccount;
let adminA: string;
beforeAll(async () => {
  t = await startTestApp({ workers: false });
  staff = await createStaffToken(t);
  firmA = await createApprovedAccount(t, staff);
  adminA = await signInAs(t, staff, firmA.email);
}, 60_000);
afterAll(() => t.close());

const NEUTRAL = { email: ['This person cannot be invited; ask them to contact us.'] };
const sql = (text: string, params: unknown[] = []) => t.orm.em.fork().getConnection().execute(text, params);
const invite = (email: string, session = adminA) =>
  t.gql(InviteMemberDocument, { email, name: 'Counsel', role: 'VIEWER' }, session);
const refusal = (result: { errors?: { extensions?: { code?: string; errors?: unknown } }[] }) =>
  result.errors?.[0]?.extensions;

/** A staff member made by an admin, with a known e-mail. */
async function staffWithEmail(email: string): Promise<void> {
  const created = await t.gql(CreateStaffUserDocument, { email, name: 'Desk Person', role: 'DESK' }, staff);
  expect(created.errors).toBeUndefined();
}

describe("a partner admin cannot capture a future client's first sign-in", () => {
  it("refuses to staff an account whose e-mail is already another account's member, naming that account", async () => {
    const email = uniqueEmail('counsel');
    expect((await invite(email)).data!.inviteMember).toMatchObject({ email, status: 'INVITED' });
    const created = await t.gql(CreateAccountDocument, { name: 'Delta Law', email }, staff);
    expect(refusal(created)).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { email: [expect.stringMatching(/^This e-mail is already a member of the account ".+" \(.+\)\.$/)] },
    });
    expect(created.errors![0].extensions!.errors).toEqual({ email: [expect.stringContaining(firmA.id)] });
    expect(await sql(`select id from accounts where email = ?`, [email])).toEqual([]);
  });

  it("refuses an invitation to a pending account's e-mail, so that its owner signs in to their own account", async () => {
    const delta = await createPendingAccount(t, staff);
    expect(refusal(await invite(delta.email))).toEqual({ code: 'BAD_USER_INPUT', errors: NEUTRAL });
    expect((await t.gql(ApproveAccountDocument, { id: delta.id }, staff)).errors).toBeUndefined();
    const owner = await signInAs(t, staff, delta.email);
    const viewer = (await t.gql(ViewerDocument, {}, owner)).data!.me;
    expect(viewer.viewer).toMatchObject({ email: delta.email, role: 'ADMIN' });
    // REST with the session: the same account.
    expect((await t.rest.get('/api/v1/me', owner).expect(200)).body.data.id).toBe(delta.id);
    // A file the owner uploads is the owner's account's, not firm A's.
    const uploaded = await t.rest
      .upload('/api/v1/files', { file: await pdf(['An affidavit.']), filename: 'affidavit.pdf' }, owner)
      .expect(201);
    await t.rest.get(`/api/v1/files/${uploaded.body.data.id}`, firmA.key).expect(404);
  });

  it('refuses to approve an account whose e-mail a member elsewhere holds (rows from before the rule), leaving it pending', async () => {
    const zeta = await createPendingAccount(t, staff);
    // An invitation accepted before D36: a member of firm A with the pending account's e-mail.
    await sql(
      `insert into account_members (id, account_id, email, name, role, status, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, 'Old invite', 'viewer', 'invited', now(), now())`,
      [firmA.id, zeta.email],
    );
    const approved = await t.gql(ApproveAccountDocument, { id: zeta.id }, staff);
    expect(refusal(approved)).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { email: [expect.stringContaining('already a member of the account')] },
    });
    expect(await sql(`select status, api_key_hash from accounts where id = ?`, [zeta.id])).toEqual([
      { status: 'pending', api_key_hash: null },
    ]);
  });

  it('lets two invitations and an account creation for one e-mail at once give it to exactly one of them', async () => {
    const firmB = await createApprovedAccount(t, staff);
    const adminB = await signInAs(t, staff, firmB.email);
    const email = uniqueEmail('contested');
    const [a, b, account] = await Promise.all([
      invite(email),
      invite(email, adminB),
      t.gql(CreateAccountDocument, { name: 'Contested LLP', email }, staff),
    ]);
    const winners = [a.data?.inviteMember, b.data?.inviteMember, account.data?.createAccount].filter(Boolean);
    expect(winners).toHaveLength(1);
    const holders = await sql(
      `select (select count(*)::int from account_members where email = ? and status <> 'removed') as members,
              (select count(*)::int from accounts where email = ?) as accounts`,
      [email, email],
    );
    expect(holders[0].members + holders[0].accounts).toBe(1);
  });
});

describe("a partner cannot hijack a staff member's sign-in", () => {
  it("refuses to invite a staff e-mail, the inviting admin's own staff e-mail included, and staff sign in as staff", async () => {
    const email = uniqueEmail('desk');
    await staffWithEmail(email);
    expect(refusal(await invite(email))).toEqual({ code: 'BAD_USER_INPUT', errors: NEUTRAL });
    const session = await signInAs(t, staff, email);
    expect((await t.gql(StaffMeDocument, {}, session)).data!.staffMe).toMatchObject({ role: 'DESK' });
  });

  it('signs a staff e-mail in as staff even where an older invitation made it a member too', async () => {
    const email = uniqueEmail('desk-legacy');
    await staffWithEmail(email);
    await sql(
      `insert into account_members (id, account_id, email, name, role, status, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, 'Hijacked', 'viewer', 'invited', now(), now())`,
      [firmA.id, email],
    );
    const session = await signInAs(t, staff, email);
    expect((await t.gql(StaffMeDocument, {}, session)).data!.staffMe).toMatchObject({ name: 'Desk Person' });
    expect((await t.gql(ViewerDocument, {}, session)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it("refuses to make staff of a client's e-mail, naming the account", async () => {
    const member = uniqueEmail('paralegal');
    await invite(member);
    const asStaff = await t.gql(CreateStaffUserDocument, { email: member, name: 'Pat', role: 'DESK' }, staff);
    expect(refusal(asStaff)).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { email: [expect.stringContaining(firmA.id)] },
    });
    const pending = await createPendingAccount(t, staff);
    const accountEmail = await t.gql(
      CreateStaffUserDocument,
      { email: pending.email, name: 'Pat', role: 'DESK' },
      staff,
    );
    expect(refusal(accountEmail)).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { email: [expect.stringContaining(pending.id)] },
    });
  });
});

describe("another firm's address written another way is no address", () => {
  it('refuses a trailing dot (the same mailbox), an empty label, and a character that shows nothing', async () => {
    const firmB = await createApprovedAccount(t, staff);
    const written = [`${firmB.email}.`, firmB.email.replace('@', '@.'), `${firmB.email}\u200b`, `\u2060${firmB.email}`];
    for (const email of written) {
      expect(refusal(await invite(email))).toEqual({
        code: 'BAD_USER_INPUT',
        errors: { email: ['The email field must be a valid email address.'] },
      });
    }
    expect(
      await sql(`select id from account_members where account_id = ? and email like ?`, [firmA.id, `%${firmB.email}%`]),
    ).toEqual([]);
  });
});

describe("other firms' people cannot be enumerated", () => {
  it('answers a member elsewhere, a staff e-mail, a pending account and an approved one alike', async () => {
    const firmB = await createApprovedAccount(t, staff);
    const adminB = await signInAs(t, staff, firmB.email);
    const memberOfB = uniqueEmail('b-member');
    await invite(memberOfB, adminB);
    const staffEmail = uniqueEmail('staff');
    await staffWithEmail(staffEmail);
    const pending = await createPendingAccount(t, staff);
    const answers = await Promise.all(
      [memberOfB, staffEmail, pending.email, firmB.email].map((email) => invite(email)),
    );
    for (const answer of answers) {
      expect(answer.data).toBeNull();
      expect(answer.errors).toEqual([
        expect.objectContaining({
          message: NEUTRAL.email[0],
          extensions: { code: 'BAD_USER_INPUT', errors: NEUTRAL },
        }),
      ]);
    }
  });
});

describe('nobody can lock a person out of signing in', () => {
  const ask = (email: string, from: string) =>
    gqlRaw(t.rest.raw(), 'mutation($email: String!) { requestSignInCode(email: $email) }', {
      variables: { email },
      headers: { 'X-Forwarded-For': from },
    });
  const signIn = (email: string, code: string) =>
    gqlRaw(t.rest.raw(), 'mutation($e: String!, $c: String!) { signIn(email: $e, code: $c) { token } }', {
      variables: { e: email, c: code },
    });

  it("keeps the person's code valid and their own address free while a stranger asks for codes", async () => {
    const victim = (await createApprovedAccount(t, staff)).email;
    expect((await ask(victim, '192.0.2.10')).data).toEqual({ requestSignInCode: true });
    const held = (await codeMailedTo(t, staff, victim))!;
    // A stranger's two requests do not void the code the person holds.
    for (let i = 0; i < 2; i++) expect((await ask(victim, '198.51.100.66')).data).toEqual({ requestSignInCode: true });
    expect((await signIn(victim, held)).data).toEqual({ signIn: { token: expect.stringMatching(/^ltk_session_/) } });
    // Three more, then a refusal: from the stranger's address only; the person still gets a code that works.
    for (let i = 0; i < 3; i++) expect((await ask(victim, '198.51.100.66')).data).toEqual({ requestSignInCode: true });
    expect((await ask(victim, '198.51.100.66')).errors![0].extensions.code).toBe('RATE_LIMITED');
    expect((await ask(victim, '192.0.2.10')).data).toEqual({ requestSignInCode: true });
    const newest = (await codeMailedTo(t, staff, victim))!;
    expect((await signIn(victim, newest)).data).toEqual({ signIn: { token: expect.stringMatching(/^ltk_session_/) } });
  }, 30_000);

  it('accepts any of the three newest codes, and counts a wrong try against each of them', async () => {
    const person = (await createApprovedAccount(t, staff)).email;
    await ask(person, '192.0.2.20');
    const first = (await codeMailedTo(t, staff, person))!;
    await ask(person, '198.51.100.77');
    await ask(person, '198.51.100.78');
    const [row] = await sql(`select count(*)::int as codes from sign_in_codes where email = ?`, [person]);
    expect(row.codes).toBe(3);
    // Four wrong tries leave one: the oldest code still signs in.
    const wrong = first === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i++) await signIn(person, wrong);
    expect(await sql(`select attempts from sign_in_codes where email = ?`, [person])).toEqual([
      { attempts: 4 },
      { attempts: 4 },
      { attempts: 4 },
    ]);
    expect((await signIn(person, first)).data?.signIn).toEqual({ token: expect.stringMatching(/^ltk_session_/) });
  }, 30_000);

  it('refuses every code after five wrong tries in all', async () => {
    const person = (await createApprovedAccount(t, staff)).email;
    await ask(person, '192.0.2.30');
    await ask(person, '192.0.2.30');
    const code = (await codeMailedTo(t, staff, person))!;
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) await signIn(person, wrong);
    const refused = await signIn(person, code);
    expect(refused.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { code: ['Too many wrong tries: ask for a new code.'] },
    });
  }, 30_000);
});
