import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AccountsDocument,
  ApproveAccountDocument,
  CreateStaffUserDocument,
  MeDocument,
  RegenerateApiKeyDocument,
  RevokeApiKeyDocument,
  SuspendAccountDocument,
} from '../graphql/generated';
import {
  createApprovedAccount,
  createPendingAccount,
  createStaffToken,
  keysMailedTo,
  type TestAccount,
} from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let staff: string;
let account: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  staff = await createStaffToken(t);
  account = await createApprovedAccount(t, staff);
});
afterAll(() => t.close());

const expect401 = async (authorization: string | undefined) => {
  const test = t.rest.get('/api/v1/me');
  if (authorization !== undefined) test.set('Authorization', authorization);
  const res = await test.expect(401);
  expect(res.body).toEqual({ message: 'Unauthenticated.' });
  expect(res.headers['www-authenticate']).toBe('Bearer');
};

const gqlCode = async (token: string | undefined) => {
  const { errors, data } = await t.gql(MeDocument, {}, token);
  expect(data ?? null).toBeNull();
  return errors![0].extensions!.code;
};

describe('REST authentication (contract section 5, D2)', () => {
  it('accepts an approved account key and shows only the last four characters of it', async () => {
    const res = await t.rest.get('/api/v1/me', account.key).expect(200);
    expect(res.body.data).toMatchObject({
      id: account.id,
      email: account.email,
      status: 'approved',
      api_key_last4: account.key.slice(-4),
    });
    expect(JSON.stringify(res.body)).not.toContain(account.key);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a malformed key', 'Bearer not a key'],
    ['an unknown key', 'Bearer ltk_test_0000000000000000000000000000000000000000'],
    ['an over-long key', `Bearer ltk_test_${'a'.repeat(500)}`],
  ])('answers 401 for %s', async (_label, header) => {
    await expect401(header);
  });

  it('answers 401 for a production key on the sandbox deployment (D1)', async () => {
    await expect401(`Bearer ltk_live_${account.key.slice('ltk_test_'.length)}`);
  });

  it('answers 401 for a staff token: staff tokens open only the staff part of GraphQL (D13)', async () => {
    await expect401(`Bearer ${staff}`);
  });

  it('answers 403 for a suspended account, and 200 again once it is reinstated', async () => {
    const suspended = await createApprovedAccount(t, staff);
    await t.gql(SuspendAccountDocument, { id: suspended.id }, staff);
    const res = await t.rest.get('/api/v1/me', suspended.key).expect(403);
    expect(res.body).toEqual({ message: 'Account not approved.' });
    expect(await gqlCode(suspended.key)).toBe('FORBIDDEN');

    // Reinstated by approving again: the same key works again.
    await t.gql(ApproveAccountDocument, { id: suspended.id }, staff);
    await t.rest.get('/api/v1/me', suspended.key).expect(200);
  });

  it('answers 401 at once for a revoked key and for the old key after regeneration', async () => {
    const revoked = await createApprovedAccount(t, staff);
    await t.gql(RevokeApiKeyDocument, { accountId: revoked.id }, staff);
    await expect401(`Bearer ${revoked.key}`);
    expect(await gqlCode(revoked.key)).toBe('UNAUTHENTICATED');

    const rotated = await createApprovedAccount(t, staff);
    await t.gql(RegenerateApiKeyDocument, { accountId: rotated.id }, staff);
    const keys = await keysMailedTo(t, staff, rotated.email);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(rotated.key);
    await expect401(`Bearer ${rotated.key}`);
    await t.rest.get('/api/v1/me', keys[1]).expect(200);
  });
});

describe('production keys (D1)', () => {
  it('issues ltk_live_ keys on production and refuses sandbox keys there', async () => {
    const production = await startTestApp({ databaseOf: t, config: { env: 'production' } });
    try {
      // The production deployment e-mails through SMTP in real life; the test keeps the outbox to read the key.
      const pending = await createPendingAccount(production, staff);
      await production.gql(ApproveAccountDocument, { id: pending.id }, staff);
      const rows = await production.orm.em
        .fork()
        .getConnection()
        .execute(`SELECT text FROM sent_emails WHERE "to" = ?`, [pending.email]);
      const liveKey = String(rows[0].text).match(/ltk_live_[A-Za-z0-9]{40}/)![0];
      await production.rest.get('/api/v1/me', liveKey).expect(200);
      await production.rest.get('/api/v1/me', account.key).expect(401);
      await t.rest.get('/api/v1/me', liveKey).expect(401);
    } finally {
      await production.close();
    }
  });
});

describe('GraphQL authentication (D14)', () => {
  it('answers partner queries for an approved key', async () => {
    const { data, errors } = await t.gql(MeDocument, {}, account.key);
    expect(errors).toBeUndefined();
    expect(data!.me).toMatchObject({ id: account.id, status: 'APPROVED', apiKeyLast4: account.key.slice(-4) });
  });

  it.each([
    ['no key', undefined],
    ['an unknown key', 'ltk_test_0000000000000000000000000000000000000000'],
  ])('answers UNAUTHENTICATED for %s on a partner query', async (_label, token) => {
    expect(await gqlCode(token)).toBe('UNAUTHENTICATED');
  });

  it('answers FORBIDDEN for a staff token on a partner query: a known credential, not one for an account (D28)', async () => {
    const { errors } = await t.gql(MeDocument, {}, staff);
    expect(errors![0]).toMatchObject({
      message: 'Staff credentials cannot act for an account.',
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('answers 403 / FORBIDDEN for a key whose account is pending', async () => {
    // Keys are issued on approval, so no API path leaves a pending account with a key: set the row directly.
    const pending = await createApprovedAccount(t, staff);
    await t.orm.em.fork().getConnection().execute(`UPDATE accounts SET status = 'pending' WHERE id = ?`, [pending.id]);
    const res = await t.rest.get('/api/v1/me', pending.key).expect(403);
    expect(res.body).toEqual({ message: 'Account not approved.' });
    expect(await gqlCode(pending.key)).toBe('FORBIDDEN');
  });

  it('refuses every staff operation to an account key (FORBIDDEN) and to no key (UNAUTHENTICATED)', async () => {
    const asAccount = await t.gql(AccountsDocument, {}, account.key);
    expect(asAccount.errors![0].extensions!.code).toBe('FORBIDDEN');
    expect(asAccount.data ?? null).toBeNull();
    const approve = await t.gql(ApproveAccountDocument, { id: account.id }, account.key);
    expect(approve.errors![0].extensions!.code).toBe('FORBIDDEN');
    const anonymous = await t.gql(AccountsDocument, {});
    expect(anonymous.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
  });

  it('refuses admin-only operations to the desk', async () => {
    const desk = await createStaffToken(t, StaffRole.DESK);
    const byDesk = await t.gql(CreateStaffUserDocument, { email: 'new@example.test', name: 'New', role: 'DESK' }, desk);
    expect(byDesk.errors![0].extensions!.code).toBe('FORBIDDEN');
    const byAdmin = await t.gql(
      CreateStaffUserDocument,
      { email: 'new@example.test', name: 'New', role: 'DESK' },
      staff,
    );
    expect(byAdmin.errors).toBeUndefined();
    expect(byAdmin.data!.createStaffUser.token).toMatch(/^ltk_staff_[A-Za-z0-9]{40}$/);
    const accounts = await t.gql(AccountsDocument, {}, byAdmin.data!.createStaffUser.token);
    expect(accounts.errors).toBeUndefined();
  });
});
