import { SIGN_IN_ANSWER_MS } from '../../src/domain/sign-in/sign-in.service';
import {
  AuditLogDocument,
  CancelOrderDocument,
  MembersDocument,
  OrdersPlacedByDocument,
  RemoveMemberDocument,
  RequestSignInCodeDocument,
  SentEmailsDocument,
  SignInDocument,
  SignOutDocument,
  StaffOrdersDocument,
  SuspendAccountDocument,
  UpdateMemberRoleDocument,
  InviteMemberDocument,
  ViewerDocument,
} from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { gqlRaw } from '../helpers/graphql-raw';
import { createApprovedAccount, createStaffToken, keysMailedTo, type TestAccount } from '../helpers/fixtures';
import { codeMailedTo, memberSession, signInAs, uniqueEmail } from '../helpers/members';
import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let staff: string;
let firm: TestAccount;
let admin: string;
beforeAll(async () => {
  t = await startTestApp({ workers: false });
  staff = await createStaffToken(t);
  firm = await createApprovedAccount(t, staff);
  admin = await signInAs(t, staff, firm.email);
}, 60_000);
afterAll(() => t.close());

const codeOf = (result: { errors?: { extensions?: { code?: string } }[] }) => result.errors?.[0]?.extensions?.code;
const sql = (text: string, params: unknown[] = []) => t.orm.em.fork().getConnection().execute(text, params);

describe('the first admin and sign-in', () => {
  it("makes the approved account's e-mail its first admin, who signs in with the code from the outbox", async () => {
    const me = await t.gql(ViewerDocument, {}, admin);
    expect(me.data!.me.viewer).toMatchObject({ email: firm.email, role: 'ADMIN', status: 'ACTIVE' });
    expect(me.data!.me.viewer!.lastSignInAt).toBeTruthy();
    expect((await t.gql(ViewerDocument, {}, firm.key)).data!.me.viewer).toBeNull();
    // REST v1 takes the session like a key.
    expect((await t.rest.get('/api/v1/me', admin).expect(200)).body.data.email).toBe(firm.email);
    // Neither the code nor the token is stored as itself.
    const [session] = await sql(`select token_hash from sessions order by created_at desc limit 1`);
    expect(session.token_hash).not.toContain('ltk_session_');
    expect(admin).toMatch(/^ltk_session_[A-Za-z0-9]{40}$/);
  });

  it('answers a known and an unknown e-mail alike, in the same time, and mails only the known one', async () => {
    const stranger = uniqueEmail('stranger');
    const timed = async (email: string) => {
      const started = Date.now();
      const result = await t.gql(RequestSignInCodeDocument, { email });
      return { result, ms: Date.now() - started };
    };
    const known = await timed(firm.email);
    const unknown = await timed(stranger);
    expect(known.result).toEqual(unknown.result);
    expect(known.result.data).toEqual({ requestSignInCode: true });
    // Both wait for the fixed answer time, so neither says whether the e-mail exists (the one timed assertion here).
    expect(known.ms).toBeGreaterThanOrEqual(SIGN_IN_ANSWER_MS - 5);
    expect(unknown.ms).toBeGreaterThanOrEqual(SIGN_IN_ANSWER_MS - 5);
    expect(Math.abs(known.ms - unknown.ms)).toBeLessThan(SIGN_IN_ANSWER_MS / 2);
    const mails = await t.gql(SentEmailsDocument, { to: stranger }, staff);
    expect(mails.data!.sentEmails.items).toEqual([]);
    expect(codeOf(await t.gql(SignInDocument, { email: stranger, code: '000000' }))).toBe('BAD_USER_INPUT');
  });

  it('refuses a wrong code, counts it, and after 5 tries refuses even the right one', async () => {
    const { email } = await memberSession(t, staff, admin, 'VIEWER');
    await t.gql(RequestSignInCodeDocument, { email });
    const code = (await codeMailedTo(t, staff, email))!;
    const wrong = code === '999999' ? '999998' : '999999';
    const first = await t.gql(SignInDocument, { email, code: wrong });
    expect(first.errors![0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', errors: { code: [expect.stringMatching(/wrong or has expired/)] } },
    });
    for (let i = 0; i < 4; i++) await t.gql(SignInDocument, { email, code: wrong });
    const right = await t.gql(SignInDocument, { email, code });
    expect(right.errors![0].extensions!.errors).toEqual({ code: ['Too many wrong tries: ask for a new code.'] });
    expect(right.data).toBeNull();
  });

  it('takes the code as people copy it, with spaces or dashes, and counts such a wrong one as a try', async () => {
    const { email } = await memberSession(t, staff, admin, 'MEMBER');
    await t.gql(RequestSignInCodeDocument, { email });
    const code = (await codeMailedTo(t, staff, email))!;
    const wrong = code === '999999' ? '999 998' : '999 999';
    const tried = await t.gql(SignInDocument, { email, code: wrong });
    expect(tried.errors![0].extensions!.errors).toEqual({ code: [expect.stringMatching(/wrong or has expired/)] });
    const spaced = `\u00a0${code.slice(0, 3)} ${code.slice(3)} `;
    expect((await t.gql(SignInDocument, { email, code: spaced })).data!.signIn.token).toMatch(/^ltk_session_/);

    await t.gql(RequestSignInCodeDocument, { email });
    const next = (await codeMailedTo(t, staff, email))!;
    const dashed = `${next.slice(0, 2)}-${next.slice(2, 4)}\u2013${next.slice(4)}`;
    expect((await t.gql(SignInDocument, { email, code: dashed })).data!.signIn.token).toMatch(/^ltk_session_/);
    // Separators hide no other character: five digits, or a letter among six, are still no code.
    for (const malformed of ['123 45', '123 4a6'])
      expect((await t.gql(SignInDocument, { email, code: malformed })).errors![0].extensions!.errors).toEqual({
        code: ['The code must be 6 digits.'],
      });
  });

  it('refuses an expired code, a used one, a malformed one and one mailed to another e-mail', async () => {
    const other = await memberSession(t, staff, admin, 'MEMBER');
    await t.gql(RequestSignInCodeDocument, { email: other.email });
    const code = (await codeMailedTo(t, staff, other.email))!;
    // Another e-mail's code opens nothing.
    expect(codeOf(await t.gql(SignInDocument, { email: firm.email, code }))).toBe('BAD_USER_INPUT');
    const malformed = await t.gql(SignInDocument, { email: other.email, code: '12ab' });
    expect(malformed.errors![0].extensions!.errors).toEqual({ code: ['The code must be 6 digits.'] });
    expect((await t.gql(SignInDocument, { email: other.email, code })).data!.signIn.token).toMatch(/^ltk_session_/);
    expect(codeOf(await t.gql(SignInDocument, { email: other.email, code }))).toBe('BAD_USER_INPUT');

    await t.gql(RequestSignInCodeDocument, { email: other.email });
    const late = (await codeMailedTo(t, staff, other.email))!;
    await sql(`update sign_in_codes set expires_at = now() - interval '1 second' where email = ?`, [other.email]);
    expect(codeOf(await t.gql(SignInDocument, { email: other.email, code: late }))).toBe('BAD_USER_INPUT');
  });

  it('limits code requests per e-mail from one address', async () => {
    const email = uniqueEmail('flood');
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await t.gql(RequestSignInCodeDocument, { email }));
    expect(answers.slice(0, 5).every((answer) => answer.data?.requestSignInCode === true)).toBe(true);
    expect(answers[5].errors![0].extensions).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterSeconds: expect.any(Number),
    });
  }, 30_000);

  it('limits code requests per e-mail and per client address, counting a burst at once one by one', async () => {
    const ctx = () => ({ em: t.orm.em.fork(), requestId: 'test', actor: null });
    const outcomes = (results: PromiseSettledResult<void>[]) =>
      results.map((result) => (result.status === 'fulfilled' ? 'sent' : result.reason.constructor.name));
    // One e-mail asked six times at once from one address: five codes, one refusal.
    const email = uniqueEmail('burst');
    const forOne = await Promise.allSettled(
      Array.from({ length: 6 }, () => t.services.signIn.requestCode(ctx(), { email }, '198.51.100.1')),
    );
    expect(outcomes(forOne).sort()).toEqual(['TooManyAttemptsError', ...Array(5).fill('sent')]);
    // The same e-mail from other addresses is counted apart (D36): a stranger never locks its owner out.
    const elsewhere = await Promise.allSettled(
      Array.from({ length: 3 }, (_, i) => t.services.signIn.requestCode(ctx(), { email }, `198.51.100.${i + 2}`)),
    );
    expect(outcomes(elsewhere)).toEqual(Array(3).fill('sent'));
    // One office address asking for 61 different people at once: 60 codes in the window, then a refusal with its reset.
    const office = '203.0.113.7';
    const forMany = await Promise.allSettled(
      Array.from({ length: 61 }, (_, i) =>
        t.services.signIn.requestCode(ctx(), { email: uniqueEmail(`office${i}`) }, office),
      ),
    );
    expect(outcomes(forMany).filter((outcome) => outcome === 'sent')).toHaveLength(60);
    const refused = forMany.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ state: { limit: 60, remaining: 0, resetInSeconds: expect.any(Number) } });
    expect(refused.reason.state.resetInSeconds).toBeGreaterThan(14 * 60);
    // Another address is not held back by the office's.
    await expect(
      t.services.signIn.requestCode(ctx(), { email: uniqueEmail('elsewhere') }, '203.0.113.8'),
    ).resolves.toBeUndefined();
  }, 60_000);

  it('gives one session for two sign-ins with the same code at once', async () => {
    const { email } = await memberSession(t, staff, admin, 'VIEWER');
    await t.gql(RequestSignInCodeDocument, { email });
    const code = (await codeMailedTo(t, staff, email))!;
    const answers = await Promise.all([t.gql(SignInDocument, { email, code }), t.gql(SignInDocument, { email, code })]);
    expect(answers.filter((answer) => answer.data?.signIn?.token)).toHaveLength(1);
    expect(answers.filter((answer) => codeOf(answer) === 'BAD_USER_INPUT')).toHaveLength(1);
  });
});

describe('sessions end', () => {
  it('on signOut, after 12 hours unused, and after 30 days in all', async () => {
    const viewer = await memberSession(t, staff, admin, 'VIEWER');
    expect((await t.gql(SignOutDocument, {}, viewer.session)).data).toEqual({ signOut: true });
    expect(codeOf(await t.gql(ViewerDocument, {}, viewer.session))).toBe('UNAUTHENTICATED');
    await t.rest.get('/api/v1/orders', viewer.session).expect(401);

    const idle = await signInAs(t, staff, viewer.email);
    await sql(
      `update sessions set last_used_at = now() - interval '12 hours 1 minute' where ended_at is null and subject_id = ?`,
      [viewer.id],
    );
    await t.rest.get('/api/v1/orders', idle).expect(401);

    const old = await signInAs(t, staff, viewer.email);
    await sql(
      `update sessions set expires_at = now() - interval '1 second' where ended_at is null and subject_id = ?`,
      [viewer.id],
    );
    expect(codeOf(await t.gql(ViewerDocument, {}, old))).toBe('UNAUTHENTICATED');
  }, 30_000);

  it('at once when the member is removed or the account suspended', async () => {
    const member = await memberSession(t, staff, admin, 'MEMBER');
    await t.rest.get('/api/v1/orders', member.session).expect(200);
    expect((await t.gql(RemoveMemberDocument, { id: member.id }, admin)).data!.removeMember.status).toBe('REMOVED');
    await t.rest.get('/api/v1/orders', member.session).expect(401);
    expect(codeOf(await t.gql(ViewerDocument, {}, member.session))).toBe('UNAUTHENTICATED');

    const other = await createApprovedAccount(t, staff);
    const otherAdmin = await signInAs(t, staff, other.email);
    await t.gql(SuspendAccountDocument, { id: other.id }, staff);
    await t.rest.get('/api/v1/orders', otherAdmin).expect(401);
    expect(codeOf(await t.gql(ViewerDocument, {}, otherAdmin))).toBe('UNAUTHENTICATED');
    const [row] = await sql(
      `select count(*)::int as live from sessions s join account_members m on m.id = s.subject_id where m.account_id = ? and s.ended_at is null`,
      [other.id],
    );
    expect(row.live).toBe(0);
  }, 30_000);

  it('is no staff credential', async () => {
    expect(codeOf(await t.gql(StaffOrdersDocument, {}, admin))).toBe('FORBIDDEN');
  });
});

describe('managing people', () => {
  it('invites by e-mail, lists, changes roles and keeps the last admin', async () => {
    const email = uniqueEmail('paralegal');
    const invited = await t.gql(InviteMemberDocument, { email, name: 'Pat Paralegal', role: 'MEMBER' }, admin);
    expect(invited.data!.inviteMember).toMatchObject({ email, role: 'MEMBER', status: 'INVITED' });
    const mails = await t.gql(SentEmailsDocument, { to: email }, staff);
    expect(mails.data!.sentEmails.items[0]).toMatchObject({ kind: 'member_invitation' });

    const again = await t.gql(InviteMemberDocument, { email, name: 'Pat Again', role: 'VIEWER' }, admin);
    expect(again.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { email: ['This e-mail is already a member of the account.'] },
    });

    const listed = await t.gql(MembersDocument, { perPage: 100 }, admin);
    expect(listed.data!.members.items.map((m) => m.email)).toEqual(expect.arrayContaining([firm.email, email]));

    const me = (await t.gql(ViewerDocument, {}, admin)).data!.me.viewer!;
    const lonely = await createApprovedAccount(t, staff);
    const lonelyAdmin = await signInAs(t, staff, lonely.email);
    const lonelyId = (await t.gql(ViewerDocument, {}, lonelyAdmin)).data!.me.viewer!.id;
    const demoted = await t.gql(UpdateMemberRoleDocument, { id: lonelyId, role: 'VIEWER' }, lonelyAdmin);
    expect(demoted.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { role: ['The last admin cannot be demoted.'] },
    });
    const removed = await t.gql(RemoveMemberDocument, { id: lonelyId }, lonelyAdmin);
    expect(removed.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { id: ['The last admin cannot be removed.'] },
    });
    // Another account's member id is unknown here.
    expect(codeOf(await t.gql(UpdateMemberRoleDocument, { id: lonelyId, role: 'VIEWER' }, admin))).toBe('NOT_FOUND');
    expect(codeOf(await t.gql(RemoveMemberDocument, { id: me.id }, lonelyAdmin))).toBe('NOT_FOUND');
    const elsewhere = await t.gql(
      InviteMemberDocument,
      { email: firm.email, name: 'Poached', role: 'ADMIN' },
      lonelyAdmin,
    );
    expect(elsewhere.errors![0].extensions!.errors).toEqual({
      email: ['This person cannot be invited; ask them to contact us.'],
    });
    const [row] = await sql(`select role, status from account_members where id = ?`, [lonelyId]);
    expect(row).toEqual({ role: 'admin', status: 'active' });
  }, 30_000);

  it('leaves one admin when two admins remove each other at once', async () => {
    const other = await createApprovedAccount(t, staff);
    const first = await signInAs(t, staff, other.email);
    const firstId = (await t.gql(ViewerDocument, {}, first)).data!.me.viewer!.id;
    const second = await memberSession(t, staff, first, 'ADMIN');
    const answers = await Promise.all([
      t.gql(RemoveMemberDocument, { id: second.id }, first),
      t.gql(RemoveMemberDocument, { id: firstId }, second.session),
    ]);
    expect(answers.filter((answer) => answer.data?.removeMember)).toHaveLength(1);
    const [row] = await sql(
      `select count(*)::int as admins from account_members where account_id = ? and role = 'admin' and status <> 'removed'`,
      [other.id],
    );
    expect(row.admins).toBe(1);
  }, 30_000);
});

describe('Idempotency-Key between people', () => {
  it("never replays one person's answer to another", async () => {
    const viewer = await memberSession(t, staff, admin, 'VIEWER');
    const member = await memberSession(t, staff, admin, 'MEMBER');
    const body = { source_language: 'de', target_language: 'en', service_type: 'certified', file_ids: [] };
    const refused = await t.rest
      .post('/api/v1/quotes', body, viewer.session)
      .set('Idempotency-Key', 'shared-key-1')
      .expect(403);
    expect(refused.body).toEqual({ message: 'This action is not allowed for your role.' });
    const other = await t.rest
      .post('/api/v1/quotes', body, member.session)
      .set('Idempotency-Key', 'shared-key-1')
      .expect(422);
    expect(Object.keys(other.body.errors)).toEqual(['idempotency_key']);
  }, 30_000);
});

describe('who did it', () => {
  it('records the member on the quote, order and booking, on both doors, and audits their cancel', async () => {
    const member = await memberSession(t, staff, admin, 'MEMBER');
    const file = await uploadFile(t, member.session, await docx({ paragraphs: [words(300)] }), 'lease.docx');
    const quote = (
      await t.rest
        .post(
          '/api/v1/quotes',
          { source_language: 'de', target_language: 'en', service_type: 'certified', file_ids: [file.id] },
          member.session,
        )
        .expect(201)
    ).body.data;
    const placedBy = { kind: 'member', member: { id: member.id, name: 'Pat member', email: member.email } };
    expect(quote.placed_by).toEqual(placedBy);
    const converted = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, member.session).expect(201))
      .body.data;
    expect((await t.rest.get(`/api/v1/orders/${converted.id}`, firm.key).expect(200)).body.data.placed_by).toEqual(
      placedBy,
    );
    const listed = (await t.gql(OrdersPlacedByDocument, {}, firm.key)).data!.orders.items.find(
      (order) => order.id === converted.id,
    );
    expect(listed!.placedBy).toEqual({ kind: 'MEMBER', member: placedBy.member });

    const booking = (
      await t.rest
        .post(
          '/api/v1/interpretation-bookings',
          {
            source_language: 'es',
            target_language: 'en',
            mode: 'video_remote',
            scheduled_at: '2031-05-01T10:00:00+00:00',
            duration_hours: 1,
          },
          firm.key,
        )
        .expect(201)
    ).body.data;
    expect(booking.placed_by).toEqual({ kind: 'api_key', member: null });

    expect((await t.gql(CancelOrderDocument, { id: converted.id }, member.session)).data!.cancelOrder.status).toBe(
      'CANCELLED',
    );
    const audit = await t.gql(AuditLogDocument, { resourceId: converted.id }, staff);
    expect(audit.data!.auditLog.items.find((entry) => entry.action === 'order.cancel')).toMatchObject({
      actorId: member.id,
      actorLabel: `member ${member.email}`,
    });
    const invites = await t.gql(AuditLogDocument, { resourceId: member.id }, staff);
    expect(invites.data!.auditLog.items.map((entry) => entry.action)).toContain('member.invite');
  }, 60_000);
});

describe("the account's API key, managed by its admins (D27)", () => {
  const key = (query: string, token: string) => gqlRaw(t.rest.raw(), query, { token });

  it('regenerates: the old key stops at once, the new one is e-mailed, never answered, and the change is audited', async () => {
    const own = await createApprovedAccount(t, staff);
    const ownAdmin = await signInAs(t, staff, own.email);
    const answer = await key('mutation { regenerateAccountApiKey { apiKeyLast4 apiKeyIssuedAt } }', ownAdmin);
    expect(JSON.stringify(answer)).not.toMatch(/ltk_test_/);
    const mailed = (await keysMailedTo(t, staff, own.email)).at(-1)!;
    expect(mailed).not.toBe(own.key);
    expect((answer.data!.regenerateAccountApiKey as { apiKeyLast4: string }).apiKeyLast4).toBe(mailed.slice(-4));
    await t.rest.get('/api/v1/me', own.key).expect(401);
    await t.rest.get('/api/v1/me', mailed).expect(200);
    const audit = await t.gql(AuditLogDocument, { resourceId: own.id }, staff);
    const me = (await t.gql(ViewerDocument, {}, ownAdmin)).data!.me.viewer!;
    expect(audit.data!.auditLog.items.find((entry) => entry.action === 'account.regenerate_key')).toMatchObject({
      actorId: me.id,
      actorLabel: `member ${own.email}`,
    });
  });

  it('revokes, and a later regeneration issues a new key; two regenerations at once leave the last e-mailed key working', async () => {
    const own = await createApprovedAccount(t, staff);
    const ownAdmin = await signInAs(t, staff, own.email);
    expect((await key('mutation { revokeAccountApiKey { id } }', ownAdmin)).errors).toBeUndefined();
    await t.rest.get('/api/v1/me', own.key).expect(401);
    const again = await key('mutation { revokeAccountApiKey { id } }', ownAdmin);
    expect(again.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { apiKey: ['The account has no active API key.'] },
    });
    // The admin's own session is not the key: it goes on working.
    await t.rest.get('/api/v1/me', ownAdmin).expect(200);
    const both = await Promise.all([
      key('mutation { regenerateAccountApiKey { id } }', ownAdmin),
      key('mutation { regenerateAccountApiKey { id } }', ownAdmin),
    ]);
    expect(both.map((answer) => answer.errors)).toEqual([undefined, undefined]);
    const [first, second] = (await keysMailedTo(t, staff, own.email)).slice(-2);
    await t.rest.get('/api/v1/me', first).expect(401);
    await t.rest.get('/api/v1/me', second).expect(200);
  });
});
