import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { AppConfig } from '../config/app-config';
import { AccountService } from '../domain/accounts/account.service';
import { AuditService } from '../domain/audit/audit.service';
import { tellAccountOfKey } from '../domain/mail/account-mail.subscribers';
import { OutboxMailer } from '../domain/mail/outbox-mailer';
import { SentEmail } from '../domain/mail/sent-email.entity';
import { StaffRole } from '../domain/identity/staff-user.entity';
import { StaffService } from '../domain/staff/staff.service';
import { OPERATOR } from '../domain/identity/context';
import type { AccountEvent } from '../domain/accounts/account.events';
import { EventHub } from '../domain/shared/event-hub';

export interface Seed {
  adminEmail: string;
  adminToken: string;
  accountEmail: string;
  accountKey: string;
}

/**
 * The sandbox quick start in one step: a new admin, and an account that admin approved, through the same
 * services staff use (audited, the key e-mailed to the outbox, where the sandbox delivers mail). Refused outside
 * the sandbox, where keys reach their owners only by e-mail.
 */
export async function seedSandbox(em: EntityManager, config: AppConfig): Promise<Seed> {
  if (config.env !== 'sandbox') throw new Error('sandbox:seed runs only in the sandbox (APP_ENV=sandbox).');
  const audit = new AuditService();
  const tag = randomBytes(3).toString('hex');
  const { staffUser, token } = await new StaffService({ audit }).create(
    { em, requestId: 'cli', actor: OPERATOR },
    { email: `sandbox-admin-${tag}@example.test`, name: `Sandbox Admin ${tag}`, role: StaffRole.ADMIN },
  );
  const ctx = { em, requestId: 'cli', actor: { kind: 'staff' as const, staff: staffUser } };
  const events = new EventHub<AccountEvent>();
  events.subscribe(tellAccountOfKey(new OutboxMailer(config.mail.from)));
  const accounts = new AccountService({ env: config.env, events, audit });
  const account = await accounts.create(ctx, {
    name: `Sandbox Law Firm ${tag}`,
    email: `sandbox-firm-${tag}@example.test`,
  });
  await accounts.approve(ctx, account.id);
  const mail = await em.findOneOrFail(
    SentEmail,
    { to: account.email, kind: 'api_key' },
    { orderBy: { createdAt: 'desc' } },
  );
  const key = mail.text.match(/ltk_test_[A-Za-z0-9]+/)?.[0];
  if (!key) throw new Error('The approval e-mail carries no key.');
  return { adminEmail: staffUser.email, adminToken: token, accountEmail: account.email, accountKey: key };
}

/** Shell assignments, so `eval "$(npm run -s cli -- sandbox:seed)"` sets them; comments say what each is. */
export function formatSeed(seed: Seed): string {
  return [
    `# admin ${seed.adminEmail}: staff token for GraphQL staff operations`,
    `ADMIN_TOKEN=${seed.adminToken}`,
    `# approved account ${seed.accountEmail}: API key for REST v1 and partner GraphQL`,
    `KEY=${seed.accountKey}`,
  ].join('\n');
}
