import { LockMode, type EntityManager } from '@mikro-orm/core';
import type { AppEnv } from '../../config/app-config';
import { requireAccount, requireStaff } from '../identity/guards';
import type { AuditService } from '../audit/audit.service';
import type { Ctx } from '../identity/context';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { claimEmail, heldElsewhere } from '../identity/email-holder';
import { isId } from '../shared/ids';
import { Page, pageRequest } from '../shared/pagination';
import { readStaffAccountPage } from './staff-account-list.queries';
import { generateToken, hashToken } from '../shared/tokens';
import { failOnDuplicate } from '../shared/unique';
import type { CreateAccount, ListAccounts, SetAccountBilling } from './account.commands';
import { Account, AccountStatus } from '../identity/account.entity';
import { accountTransitions } from './account.states';
import { apiKeyPrefix } from '../identity/api-key-prefix';
import { endAccountSessions } from '../sign-in/member-sessions.queries';
import { addFirstAdmin } from '../members/member.service';
import type { EventHub } from '../shared/event-hub';
import type { AccountEvent } from './account.events';

/** The account life cycle (D13): staff create, approve and suspend; staff and the account's admins regenerate and revoke its key (D27). */
export class AccountService {
  constructor(private readonly deps: { env: AppEnv; events: EventHub<AccountEvent>; audit: AuditService }) {}

  async create(ctx: Ctx, { name, email }: CreateAccount): Promise<Account> {
    requireStaff(ctx.actor, 'createAccount');
    return failOnDuplicate('email', () =>
      this.inTransaction(ctx, async (em) => {
        // An e-mail is one identity (D36): the account's e-mail becomes its first admin on approval.
        const holder = await claimEmail(em, email);
        if (holder && holder.kind !== 'account') throw ValidationError.of('email', heldElsewhere(holder));
        const account = em.create(Account, { name, email });
        this.deps.audit.record(em, ctx.actor, {
          action: 'account.create',
          resourceType: 'account',
          resourceId: account.id,
          toState: account.status,
        });
        return account;
      }),
    );
  }

  /**
   * Approving a pending account issues its first key by e-mail and makes its e-mail the first admin member (D27);
   * approving a suspended one reinstates it.
   */
  async approve(ctx: Ctx, id: unknown): Promise<Account> {
    requireStaff(ctx.actor, 'approveAccount');
    return this.changeStatus(ctx, id, AccountStatus.APPROVED, 'approve', async (em, account) => {
      account.approvedAt = new Date();
      account.suspendedAt = null;
      if (!account.apiKeyHash && !account.apiKeyIssuedAt) {
        await addFirstAdmin(em, account);
        await this.issueKey(em, account, 'approved');
      }
    });
  }

  async suspend(ctx: Ctx, id: unknown): Promise<Account> {
    requireStaff(ctx.actor, 'suspendAccount');
    return this.changeStatus(ctx, id, AccountStatus.SUSPENDED, 'suspend', async (em, account) => {
      account.suspendedAt = new Date();
      await endAccountSessions(em, account.id);
    });
  }

  /** The old key stops working at once; the new one is e-mailed. */
  async regenerateKey(ctx: Ctx, id: unknown): Promise<Account> {
    requireStaff(ctx.actor, 'regenerateApiKey');
    return this.regenerate(ctx, id);
  }

  async revokeKey(ctx: Ctx, id: unknown): Promise<Account> {
    requireStaff(ctx.actor, 'revokeApiKey');
    return this.revoke(ctx, id);
  }

  /**
   * An admin member's own account (D27): the new key goes to the account's e-mail, never into the portal's answer,
   * so a key never reaches a browser.
   */
  async regenerateOwnKey(ctx: Ctx): Promise<Account> {
    return this.regenerate(ctx, requireAccount(ctx.actor, 'account.key.manage').id);
  }

  async revokeOwnKey(ctx: Ctx): Promise<Account> {
    return this.revoke(ctx, requireAccount(ctx.actor, 'account.key.manage').id);
  }

  /** D31: how the account pays from its next order on; what it owes already is unchanged. Audited with before and after. */
  async setBilling(ctx: Ctx, id: unknown, command: SetAccountBilling): Promise<Account> {
    requireStaff(ctx.actor, 'setAccountBilling');
    return this.inTransaction(ctx, async (em) => {
      const account = await this.lock(em, id);
      const before = billingOf(account);
      Object.assign(account, {
        billingTerms: command.terms,
        creditLimitCents: command.creditLimitCents,
        purchaseOrderRequired: command.purchaseOrderRequired,
      });
      this.deps.audit.record(em, ctx.actor, {
        action: 'account.set_billing',
        resourceType: 'account',
        resourceId: account.id,
        details: { before, after: billingOf(account) },
      });
      return account;
    });
  }

  async list(ctx: Ctx, command: ListAccounts): Promise<Page<Account>> {
    requireStaff(ctx.actor, 'accounts');
    return readStaffAccountPage(ctx.em, command, pageRequest(command));
  }

  private changeStatus(
    ctx: Ctx,
    id: unknown,
    to: AccountStatus,
    action: string,
    apply: (em: EntityManager, account: Account) => Promise<void>,
  ): Promise<Account> {
    return this.inTransaction(ctx, async (em) => {
      const account = await this.lock(em, id);
      const from = account.status;
      accountTransitions.assertMove(from, to, account, ctx, `${action} the account`);
      account.status = to;
      await apply(em, account);
      this.deps.audit.record(em, ctx.actor, {
        action: `account.${action}`,
        resourceType: 'account',
        resourceId: account.id,
        fromState: from,
        toState: to,
      });
      return account;
    });
  }

  private regenerate(ctx: Ctx, id: unknown): Promise<Account> {
    return this.inTransaction(ctx, async (em) => {
      const account = await this.lock(em, id);
      accountTransitions.assertAction('regenerate_key', account);
      await this.issueKey(em, account, 'regenerated');
      this.deps.audit.record(em, ctx.actor, {
        action: 'account.regenerate_key',
        resourceType: 'account',
        resourceId: account.id,
      });
      return account;
    });
  }

  private revoke(ctx: Ctx, id: unknown): Promise<Account> {
    return this.inTransaction(ctx, async (em) => {
      const account = await this.lock(em, id);
      if (!account.apiKeyHash) throw ValidationError.of('api_key', 'The account has no active API key.');
      account.apiKeyHash = null;
      this.deps.audit.record(em, ctx.actor, {
        action: 'account.revoke_key',
        resourceType: 'account',
        resourceId: account.id,
      });
      return account;
    });
  }

  /** Generates a key, keeps only its hash and last four characters, and raises the key itself, to be e-mailed. */
  private async issueKey(em: EntityManager, account: Account, reason: 'approved' | 'regenerated'): Promise<void> {
    const key = generateToken(apiKeyPrefix(this.deps.env));
    account.apiKeyHash = hashToken(key);
    account.apiKeyLast4 = key.slice(-4);
    account.apiKeyIssuedAt = new Date();
    await em.flush();
    await this.deps.events.raise(em, { kind: 'key_issued', account, apiKey: key, reason });
  }

  /** Row lock: two staff acting on one account at once are serialised, not interleaved. */
  private async lock(em: EntityManager, id: unknown): Promise<Account> {
    if (!isId(id)) throw new NotFoundError();
    const account = await em.findOne(Account, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!account) throw new NotFoundError();
    return account;
  }

  private inTransaction<T>(ctx: Ctx, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return ctx.em.transactional(work);
  }
}

const billingOf = (account: Account) => ({
  terms: account.billingTerms,
  credit_limit_cents: account.creditLimitCents,
  purchase_order_required: account.purchaseOrderRequired,
});
