import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AccountsDocument,
  ApproveAccountDocument,
  AuditLogDocument,
  CreateAccountDocument,
  CreateStaffUserDocument,
  MeDocument,
  RegenerateApiKeyDocument,
  RevokeApiKeyDocument,
  SentEmailsDocument,
  SuspendAccountDocument,
} from '../graphql/generated';
import { createPendingAccount, createStaffToken, keysMailedTo, KEY_PATTERN } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let staff: string;
let staffId: string;
beforeAll(async () => {
  t = await startTestApp();
  staff = await createStaffToken(t);
  const [row] = await t.orm.em
    .fork()
    .getConnection()
    .execute(`SELECT id FROM staff_users ORDER BY created_at DESC LIMIT 1`);
  staffId = row.id;
});
afterAll(() => t.close());

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const badInput = (errors: { extensions?: { code?: string; errors?: Record<string, string[]> } }[] | undefined) => {
  expect(errors).toHaveLength(1);
  expect(errors![0].extensions!.code).toBe('BAD_USER_INPUT');
  return errors![0].extensions!.errors;
};

describe('createAccount', () => {
  it('creates a pending account without a key, and audits it', async () => {
    const { data, errors } = await t.gql(
      CreateAccountDocument,
      { name: '  Doe Immigration  ', email: 'Intake@DoeLaw.example' },
      staff,
    );
    expect(errors).toBeUndefined();
    const account = data!.createAccount;
    expect(account).toMatchObject({
      name: 'Doe Immigration',
      email: 'intake@doelaw.example',
      status: 'PENDING',
      apiKeyLast4: null,
      approvedAt: null,
    });
    expect(account.createdAt).toMatch(TIMESTAMP);
    const audit = await t.gql(AuditLogDocument, { resourceId: account.id }, staff);
    expect(audit.data!.auditLog.items).toEqual([
      expect.objectContaining({
        action: 'account.create',
        actorId: staffId,
        resourceType: 'account',
        fromState: null,
        toState: 'pending',
      }),
    ]);
  });

  it('reports every invalid field at once, in the REST 422 shape', async () => {
    const { errors } = await t.gql(CreateAccountDocument, { name: '   ', email: 'not-an-email' }, staff);
    expect(badInput(errors)).toEqual({
      name: ['The name field is required.'],
      email: ['The email field must be a valid email address.'],
    });
    expect(errors![0].message).toBe('The name field is required. (and 1 more error)');
  });

  it('refuses over-long names and a second account with the same e-mail (any case)', async () => {
    const long = await t.gql(CreateAccountDocument, { name: 'x'.repeat(256), email: 'long@example.test' }, staff);
    expect(badInput(long.errors)).toEqual({ name: ['The name field must not be greater than 255 characters.'] });
    await t.gql(CreateAccountDocument, { name: 'First', email: 'dup@example.test' }, staff);
    const dup = await t.gql(CreateAccountDocument, { name: 'Second', email: 'DUP@example.test' }, staff);
    expect(badInput(dup.errors)).toEqual({ email: ['The email has already been taken.'] });
    const count = await t.orm.em
      .fork()
      .getConnection()
      .execute(`SELECT count(*)::int AS n FROM accounts WHERE email = 'dup@example.test'`);
    expect(count[0].n).toBe(1);
  });
});

describe('approveAccount', () => {
  it('approves, e-mails the key once, and shows the key nowhere else', async () => {
    const pending = await createPendingAccount(t, staff);
    const approved = await t.gql(ApproveAccountDocument, { id: pending.id }, staff);
    expect(approved.errors).toBeUndefined();
    expect(approved.data!.approveAccount).toMatchObject({
      status: 'APPROVED',
      approvedAt: expect.stringMatching(TIMESTAMP),
    });

    const mails = await t.gql(SentEmailsDocument, { to: pending.email }, staff);
    expect(mails.data!.sentEmails.items).toHaveLength(1);
    const [mail] = mails.data!.sentEmails.items;
    expect(mail).toMatchObject({ kind: 'api_key', to: pending.email, subject: 'Your API key' });
    const key = mail.text!.match(KEY_PATTERN)![0];
    expect(key).toMatch(/^ltk_test_[A-Za-z0-9]{40}$/);
    expect(approved.data!.approveAccount.apiKeyLast4).toBe(key.slice(-4));

    // Nowhere but the e-mail: not in the mutation answer, the staff list, the audit log, the partner view or the database.
    const seen = [
      approved,
      await t.gql(AccountsDocument, { perPage: 100 }, staff),
      await t.gql(AuditLogDocument, { resourceId: pending.id }, staff),
      await t.gql(MeDocument, {}, key),
      (await t.rest.get('/api/v1/me', key).expect(200)).body,
      await t.orm.em.fork().getConnection().execute(`SELECT * FROM accounts WHERE id = ?`, [pending.id]),
      await t.orm.em.fork().getConnection().execute(`SELECT * FROM audit_entries WHERE resource_id = ?`, [pending.id]),
    ];
    for (const place of seen) expect(JSON.stringify(place)).not.toContain(key.slice('ltk_test_'.length, -4));
  });

  it('refuses to approve twice and to suspend a pending account, changing nothing', async () => {
    const pending = await createPendingAccount(t, staff);
    const suspend = await t.gql(SuspendAccountDocument, { id: pending.id }, staff);
    expect(badInput(suspend.errors)).toEqual({ status: ['Cannot suspend the account while the status is pending.'] });
    await t.gql(ApproveAccountDocument, { id: pending.id }, staff);
    const again = await t.gql(ApproveAccountDocument, { id: pending.id }, staff);
    expect(badInput(again.errors)).toEqual({ status: ['Cannot approve the account while the status is approved.'] });
    expect(await keysMailedTo(t, staff, pending.email)).toHaveLength(1);
    const audit = await t.gql(AuditLogDocument, { resourceId: pending.id }, staff);
    expect(audit.data!.auditLog.items.map((e) => e.action)).toEqual(['account.approve', 'account.create']);
  });

  it('issues exactly one key when two staff approve at the same moment', async () => {
    const pending = await createPendingAccount(t, staff);
    const results = await Promise.all([1, 2, 3].map(() => t.gql(ApproveAccountDocument, { id: pending.id }, staff)));
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    expect(await keysMailedTo(t, staff, pending.email)).toHaveLength(1);
  });

  it('answers NOT_FOUND for an unknown and for a malformed id', async () => {
    for (const id of ['6f1c1c4e-8d1f-4a4e-9a53-2a0f5f0c9b11', 'nope', "1' OR '1'='1"]) {
      const { errors } = await t.gql(ApproveAccountDocument, { id }, staff);
      expect(errors![0]).toMatchObject({ message: 'Not found.', extensions: { code: 'NOT_FOUND' } });
    }
  });
});

describe('suspend, regenerate and revoke', () => {
  it('walks the whole life cycle with an audit row for every step', async () => {
    const pending = await createPendingAccount(t, staff);
    const regeneratePending = await t.gql(RegenerateApiKeyDocument, { accountId: pending.id }, staff);
    expect(badInput(regeneratePending.errors)).toEqual({
      status: ['Cannot regenerate the API key while the status is pending.'],
    });

    await t.gql(ApproveAccountDocument, { id: pending.id }, staff);
    const suspended = await t.gql(SuspendAccountDocument, { id: pending.id }, staff);
    expect(suspended.data!.suspendAccount).toMatchObject({
      status: 'SUSPENDED',
      suspendedAt: expect.stringMatching(TIMESTAMP),
    });
    const reinstated = await t.gql(ApproveAccountDocument, { id: pending.id }, staff);
    expect(reinstated.data!.approveAccount).toMatchObject({ status: 'APPROVED', suspendedAt: null });
    expect(await keysMailedTo(t, staff, pending.email)).toHaveLength(1);

    const regenerated = await t.gql(RegenerateApiKeyDocument, { accountId: pending.id }, staff);
    const keys = await keysMailedTo(t, staff, pending.email);
    expect(keys).toHaveLength(2);
    expect(regenerated.data!.regenerateApiKey.apiKeyLast4).toBe(keys[1].slice(-4));

    const revoked = await t.gql(RevokeApiKeyDocument, { accountId: pending.id }, staff);
    expect(revoked.errors).toBeUndefined();
    const revokeAgain = await t.gql(RevokeApiKeyDocument, { accountId: pending.id }, staff);
    expect(badInput(revokeAgain.errors)).toEqual({ apiKey: ['The account has no active API key.'] });
    await t.rest.get('/api/v1/me', keys[1]).expect(401);

    const audit = await t.gql(AuditLogDocument, { resourceId: pending.id }, staff);
    expect(audit.data!.auditLog.items.map((e) => [e.action, e.fromState, e.toState, e.actorId])).toEqual([
      ['account.revoke_key', null, null, staffId],
      ['account.regenerate_key', null, null, staffId],
      ['account.approve', 'suspended', 'approved', staffId],
      ['account.suspend', 'approved', 'suspended', staffId],
      ['account.approve', 'pending', 'approved', staffId],
      ['account.create', null, 'pending', staffId],
    ]);
  });
});

describe('staff lists', () => {
  it('pages accounts newest first with a status filter', async () => {
    const mine = [
      await createPendingAccount(t, staff),
      await createPendingAccount(t, staff),
      await createPendingAccount(t, staff),
    ];
    const page1 = await t.gql(AccountsDocument, { status: 'PENDING', perPage: 2 }, staff);
    const { pageInfo, items } = page1.data!.accounts;
    expect(pageInfo).toMatchObject({ page: 1, perPage: 2 });
    expect(pageInfo.total).toBeGreaterThanOrEqual(3);
    expect(pageInfo.lastPage).toBe(Math.ceil(pageInfo.total / 2));
    expect(items.map((a) => a.id)).toEqual([mine[2].id, mine[1].id]);
    expect(items.every((a) => a.status === 'PENDING')).toBe(true);
    const beyond = await t.gql(AccountsDocument, { status: 'PENDING', perPage: 2, page: pageInfo.lastPage + 1 }, staff);
    expect(beyond.data!.accounts.items).toEqual([]);
  });

  it.each([
    [{ perPage: 0 }, { perPage: ['The per page field must be at least 1.'] }],
    [{ perPage: 101 }, { perPage: ['The per page field must not be greater than 100.'] }],
    [{ page: 0 }, { page: ['The page field must be at least 1.'] }],
  ])('refuses paging %j', async (args, expected) => {
    for (const document of [AccountsDocument, AuditLogDocument, SentEmailsDocument] as const) {
      const { errors } = await t.gql(document as typeof AccountsDocument, args, staff);
      expect(badInput(errors)).toEqual(expected);
    }
  });

  it('lists nothing for an audit resource id that cannot exist', async () => {
    const { data, errors } = await t.gql(AuditLogDocument, { resourceId: 'not-a-uuid' }, staff);
    expect(errors).toBeUndefined();
    expect(data!.auditLog).toEqual({ items: [], pageInfo: { page: 1, perPage: 15, total: 0, lastPage: 1 } });
  });
});

it('lets an admin create staff users, audited, with the token shown only in the answer', async () => {
  const admin = await createStaffToken(t, StaffRole.ADMIN);
  const bad = await t.gql(CreateStaffUserDocument, { email: 'nope', name: '', role: 'DESK' }, admin);
  expect(badInput(bad.errors)).toEqual({
    email: ['The email field must be a valid email address.'],
    name: ['The name field is required.'],
  });
  const made = await t.gql(
    CreateStaffUserDocument,
    { email: 'reviewer@example.test', name: 'Rita Reviewer', role: 'DESK' },
    admin,
  );
  const audit = await t.gql(AuditLogDocument, { resourceId: made.data!.createStaffUser.staffUser.id }, staff);
  expect(audit.data!.auditLog.items).toEqual([
    expect.objectContaining({ action: 'staff_user.create', details: { role: 'desk' } }),
  ]);
  expect(JSON.stringify(audit)).not.toContain(made.data!.createStaffUser.token);
});
