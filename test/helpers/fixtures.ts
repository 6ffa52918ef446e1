import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { OPERATOR } from '../../src/domain/identity/context';
import { ApproveAccountDocument, CreateAccountDocument, SentEmailsDocument } from '../graphql/generated';
import type { TestApp } from './test-app';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A staff user made as the CLI makes one (an admin with credentials, who may do anything, unless asked); returns its token. */
export async function createStaffToken(t: TestApp, role: StaffRole = StaffRole.ADMIN): Promise<string> {
  const ctx = { em: t.orm.em.fork(), requestId: 'test', actor: OPERATOR };
  const { token } = await t.services.staff.create(ctx, {
    email: `staff-${unique()}@example.test`,
    name: 'Sam Staff',
    role,
    credentials: 'ATA-certified translator no. 100001',
  });
  return token;
}

export const KEY_PATTERN = /ltk_(?:test|live)_[A-Za-z0-9]{40}/g;

/** The keys e-mailed to an address, oldest first, read back through the staff outbox as a person would. */
export async function keysMailedTo(t: TestApp, staffToken: string, email: string): Promise<string[]> {
  const { data, errors } = await t.gql(SentEmailsDocument, { to: email, perPage: 100 }, staffToken);
  if (errors) throw new Error(JSON.stringify(errors));
  return data!.sentEmails.items
    .slice()
    .reverse()
    .flatMap((mail) => (mail.text ?? '').match(KEY_PATTERN) ?? []);
}

export interface TestAccount {
  id: string;
  email: string;
  key: string;
}

export async function createPendingAccount(t: TestApp, staffToken: string): Promise<{ id: string; email: string }> {
  const email = `firm-${unique()}@example.test`;
  const created = await t.gql(CreateAccountDocument, { name: 'Smith & Partners LLP', email }, staffToken);
  if (created.errors) throw new Error(JSON.stringify(created.errors));
  return { id: created.data!.createAccount.id, email };
}

/** Create, approve, and take the key from the approval e-mail: the path a new customer goes through. */
export async function createApprovedAccount(t: TestApp, staffToken: string): Promise<TestAccount> {
  const account = await createPendingAccount(t, staffToken);
  const approved = await t.gql(ApproveAccountDocument, { id: account.id }, staffToken);
  if (approved.errors) throw new Error(JSON.stringify(approved.errors));
  const keys = await keysMailedTo(t, staffToken, account.email);
  return { ...account, key: keys[keys.length - 1] };
}
