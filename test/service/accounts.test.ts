import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Account, AccountStatus } from '../../src/domain/identity/account.entity';
import type { Actor } from '../../src/domain/identity/context';
import { OPERATOR } from '../../src/domain/identity/context';
import { accountActor } from '../../src/domain/identity/guards';
import { AccountMember, MemberRole } from '../../src/domain/identity/member.entity';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { AuditEntry } from '../../src/domain/audit/audit-entry.entity';
import { SentEmail } from '../../src/domain/mail/sent-email.entity';
import { ForbiddenError, NotFoundError, ValidationError } from '../../src/shared/errors';
import { KEY_PATTERN } from '../helpers/fixtures';
import { startTestServices, type TestServices } from '../helpers/test-services';

/**
 * The account life cycle (D13) through the services themselves, built by the composition root as the service builds
 * them, with no door in between (docs/architecture.md "Tests": the service layer). What the doors add (parsing,
 * the wire shapes, the credentials) has its end-to-end tests in test/e2e/accounts.e2e.test.ts.
 */
let t: TestServices;
let staff: Actor;
let counter = 0;

beforeAll(async () => {
  t = await startTestServices();
  const { staffUser } = await t.services.staff.create(t.ctx(OPERATOR), {
    email: 'desk@example.test',
    name: 'Dana Desk',
    role: StaffRole.ADMIN,
    credentials: '',
  });
  staff = { kind: 'staff', staff: staffUser };
});

afterAll(() => t.close());

const pending = () =>
  t.services.accounts.create(t.ctx(staff), { name: 'Smith & Partners LLP', email: `firm-${++counter}@example.test` });

/** What the database holds about an account, read by a fresh EntityManager: what committed, nothing cached. */
async function stored(account: Account) {
  const em = t.orm.em.fork();
  return {
    status: (await em.findOneOrFail(Account, { id: account.id })).status,
    members: await em.find(AccountMember, { account: account.id }),
    mails: await em.find(SentEmail, { to: account.email }),
    audit: (await em.find(AuditEntry, { resourceId: account.id }, { orderBy: { createdAt: 'asc' } })).map(
      (entry) => `${entry.action} ${entry.fromState ?? '-'} -> ${entry.toState}`,
    ),
  };
}

describe('an account from creation to approval', () => {
  it('is created pending, with its audit row and nothing else', async () => {
    const account = await pending();
    expect(await stored(account)).toEqual({
      status: AccountStatus.PENDING,
      members: [],
      mails: [],
      audit: ['account.create - -> pending'],
    });
  });

  it('is approved with its first admin, the e-mail that carries its key and the audit row, in one commit', async () => {
    const account = await pending();
    await t.services.accounts.approve(t.ctx(staff), account.id);
    const after = await stored(account);
    expect(after.status).toBe(AccountStatus.APPROVED);
    expect(after.members.map((member) => [member.email, member.role])).toEqual([[account.email, MemberRole.ADMIN]]);
    expect(after.mails).toHaveLength(1);
    expect(after.mails[0].text.match(KEY_PATTERN)).toHaveLength(1);
    expect(after.audit).toEqual(['account.create - -> pending', 'account.approve pending -> approved']);
  });

  it('approved three times at once: one approval, one member, one key e-mailed', async () => {
    const account = await pending();
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => t.services.accounts.approve(t.ctx(staff), account.id)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(ValidationError);
    const after = await stored(account);
    expect(after.members).toHaveLength(1);
    expect(after.mails).toHaveLength(1);
    expect(after.audit).toEqual(['account.create - -> pending', 'account.approve pending -> approved']);
  });
});

describe('a refused call changes nothing', () => {
  it('a move the table refuses, an unknown id, a caller who may not', async () => {
    const account = await pending();
    await t.services.accounts.approve(t.ctx(staff), account.id);
    const before = await stored(account);
    await expect(t.services.accounts.approve(t.ctx(staff), account.id)).rejects.toBeInstanceOf(ValidationError);
    await expect(
      t.services.accounts.suspend(t.ctx(staff), '00000000-0000-4000-8000-000000000000'),
    ).rejects.toBeInstanceOf(NotFoundError);
    const client = accountActor(await t.orm.em.fork().findOneOrFail(Account, { id: account.id }));
    await expect(t.services.accounts.suspend(t.ctx(client), account.id)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await stored(account)).toEqual(before);
  });

  it('an e-mail a staff member holds is refused for an account (D36)', async () => {
    await expect(
      t.services.accounts.create(t.ctx(staff), { name: 'Desk Impostor', email: 'desk@example.test' }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await t.orm.em.fork().count(Account, { email: 'desk@example.test' })).toBe(0);
  });
});
