import { CreateStaffUserDocument, DeactivateStaffUserDocument } from '../graphql/generated';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { gqlRaw } from '../helpers/graphql-raw';
import { codeMailedTo, uniqueEmail } from '../helpers/members';
import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let admin: string;
let firm: TestAccount;
beforeAll(async () => {
  t = await startTestApp({ workers: false });
  admin = await createStaffToken(t);
  firm = await createApprovedAccount(t, admin);
}, 60_000);
afterAll(() => t.close());

const gql = (query: string, token?: string, variables?: Record<string, unknown>) =>
  gqlRaw(t.rest.raw(), query, { token, variables });
const codeOf = (answer: { errors?: { extensions: { code: string } }[] }) => answer.errors?.[0]?.extensions.code;
const SIGN_IN =
  'mutation ($email: String!, $code: String!) { signIn(email: $email, code: $code) { token expiresAt member { id } staff { id email role } } }';

/** A staff user made by an admin, signed in with the code from the outbox: their id, e-mail and the signIn answer. */
async function signedInStaff(role: 'ADMIN' | 'DESK' | 'TRANSLATOR') {
  const email = uniqueEmail(`staff-${role.toLowerCase()}`);
  const created = await t.gql(CreateStaffUserDocument, { email, name: `Kim ${role.toLowerCase()}`, role }, admin);
  expect(created.errors).toBeUndefined();
  expect(
    (await gql('mutation ($email: String!) { requestSignInCode(email: $email) }', undefined, { email })).data,
  ).toEqual({ requestSignInCode: true });
  const code = await codeMailedTo(t, admin, email);
  const signed = await gql(SIGN_IN, undefined, { email, code });
  expect(signed.errors).toBeUndefined();
  const answer = signed.data!.signIn as {
    token: string;
    member: unknown;
    staff: { id: string; email: string; role: string };
  };
  return { id: created.data!.createStaffUser.staffUser.id, email, answer, session: answer.token };
}

describe('staff sign in with a code (D28)', () => {
  it('gives a staff session that acts as its staff member, with their role', async () => {
    const desk = await signedInStaff('DESK');
    expect(desk.answer).toMatchObject({
      token: expect.stringMatching(/^ltk_session_[A-Za-z0-9]{40}$/),
      member: null,
      staff: { id: desk.id, email: desk.email, role: 'DESK' },
    });
    expect((await gql('{ staffMe { id role } }', desk.session)).data).toEqual({
      staffMe: { id: desk.id, role: 'DESK' },
    });
    expect((await gql('{ staffOrders { items { id } } }', desk.session)).errors).toBeUndefined();
    // The desk role may not make staff, by session as by token.
    expect(
      codeOf(
        await gql(
          'mutation { createStaffUser(email: "someone@example.test", name: "Someone", role: DESK) { token } }',
          desk.session,
        ),
      ),
    ).toBe('FORBIDDEN');
  });

  it('is refused for an account, on both doors', async () => {
    const { session } = await signedInStaff('ADMIN');
    const partner = await gql('{ orders { items { id } } }', session);
    expect(codeOf(partner)).toBe('FORBIDDEN');
    expect(partner.errors![0].message).toBe('Staff credentials cannot act for an account.');
    // REST v1 has no staff part: a staff credential is no credential there (D13).
    await t.rest.get('/api/v1/orders', session).expect(401);
    // And an account's key is no staff credential.
    expect(codeOf(await gql('{ staffMe { id } }', firm.key))).toBe('FORBIDDEN');
  });

  it('ends on signOut, while the long-lived staff token is not a session to end', async () => {
    const { session } = await signedInStaff('TRANSLATOR');
    expect((await gql('mutation { signOut }', session)).data).toEqual({ signOut: true });
    expect(codeOf(await gql('{ staffMe { id } }', session))).toBe('UNAUTHENTICATED');
    expect(codeOf(await gql('mutation { signOut }', session))).toBe('UNAUTHENTICATED');
    const tokenSignOut = await gql('mutation { signOut }', admin);
    expect(codeOf(tokenSignOut)).toBe('FORBIDDEN');
    expect((await gql('{ staffMe { id } }', admin)).errors).toBeUndefined();
  });

  it('answers 401 from the moment the staff member is deactivated', async () => {
    const desk = await signedInStaff('DESK');
    expect((await t.gql(DeactivateStaffUserDocument, { id: desk.id }, admin)).errors).toBeUndefined();
    expect(codeOf(await gql('{ staffMe { id } }', desk.session))).toBe('UNAUTHENTICATED');
    // Nobody with that e-mail may sign in any more: the code names no one, and none is mailed.
    await gql('mutation ($email: String!) { requestSignInCode(email: $email) }', undefined, { email: desk.email });
    const codes = await t.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from sent_emails where "to" = ? and kind = 'sign_in_code'`, [desk.email]);
    expect(codes[0].n).toBe(1);
  });

  it("ends after 12 hours unused and 30 days in all, like a member's", async () => {
    const sql = (text: string, params: unknown[]) => t.orm.em.fork().getConnection().execute(text, params);
    const idle = await signedInStaff('DESK');
    await sql(`update sessions set last_used_at = now() - interval '12 hours 1 minute' where subject_id = ?`, [
      idle.id,
    ]);
    expect(codeOf(await gql('{ staffMe { id } }', idle.session))).toBe('UNAUTHENTICATED');
    const old = await signedInStaff('DESK');
    await sql(`update sessions set expires_at = now() - interval '1 second' where subject_id = ?`, [old.id]);
    expect(codeOf(await gql('{ staffMe { id } }', old.session))).toBe('UNAUTHENTICATED');
  });
});
