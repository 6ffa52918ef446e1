import { LoadStrategy, LockMode, type EntityManager, type FilterQuery } from '@mikro-orm/core';
import { accountOf } from '../identity/account-of';
import { NotFoundError, ValidationError } from '../../shared/errors';
import type { AuditService } from '../audit/audit.service';
import type { Ctx } from '../identity/context';
import { requireAccount, requireStaff } from '../identity/guards';
import { Account, BillingTerms, TERMS_DAYS } from '../identity/account.entity';
import { PaymentRefund } from '../payments/payment-refund.entity';
import { Payment } from '../payments/payment.entity';
import type { EventHub } from '../shared/event-hub';
import { isId } from '../shared/ids';
import { formatMoney } from '../shared/money';
import { Page, pageRequest, paginate } from '../shared/pagination';
import { retryingTransaction } from '../shared/transaction';
import {
  accountsToInvoice,
  lockAccountPlacements,
  nextInvoiceNumber,
  uncreditedRefunds,
  uninvoicedWork,
} from './account-billing.queries';
import type { ListInvoices, RecordInvoicePayment, StaffInvoices, VoidInvoice } from './invoice.commands';
import { Invoice, InvoiceStatus, type InvoiceCredit, type InvoiceLine } from './invoice.entity';
import type { InvoiceEvent } from './invoice.events';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The first instant of `date`'s month, UTC. */
export const monthStart = (date: Date): Date => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));

/** `YYYYMM` of `date`, UTC. */
const monthKey = (date: Date): string => `${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;

/**
 * Invoices of accounts on terms (D31): closing a month's work on account into one invoice per account, the partner's
 * and the staff's reads, payments against an invoice and voiding one issued in error.
 */
export class InvoiceService {
  constructor(private readonly deps: { audit: AuditService; events: EventHub<InvoiceEvent> }) {}

  /**
   * The monthly close (a schedule, once across processes): every account's work on account placed before this month
   * (UTC) becomes its invoice for the month before, issued `now`. Answers how many invoices were issued.
   */
  async closeMonth(em: EntityManager, now = new Date()): Promise<number> {
    const before = monthStart(now);
    let issued = 0;
    for (const accountId of await accountsToInvoice(em, before))
      if (await this.close(em, accountId, { before, periodOf: new Date(before.getTime() - 1), issuedAt: now }))
        issued++;
    return issued;
  }

  /** Admin staff close an account's work on account now; null when there is nothing new to invoice. */
  async closeOnDemand(ctx: Ctx, accountId: unknown): Promise<Invoice | null> {
    requireStaff(ctx.actor, 'closeInvoices');
    if (!isId(accountId) || !(await ctx.em.count(Account, { id: accountId }))) throw new NotFoundError();
    const now = new Date();
    return this.close(
      ctx.em,
      accountId,
      { before: new Date(now.getTime() + 1), periodOf: now, issuedAt: now },
      ctx.actor,
    );
  }

  /**
   * One account's invoice of the work on account placed, and refunds made, before `before`, for `periodOf`'s month,
   * issued (dated and numbered) at `issuedAt`: under the account's placement lock, so a placement and a close never
   * cross, and each payment and refund lands on exactly one invoice (they are marked with it in the same transaction).
   * Nothing new: null, nothing issued.
   */
  private close(
    em: EntityManager,
    accountId: string,
    { before, periodOf, issuedAt }: { before: Date; periodOf: Date; issuedAt: Date },
    actor: Ctx['actor'] = null,
  ): Promise<Invoice | null> {
    return retryingTransaction(em, async (tx) => {
      await lockAccountPlacements(tx, accountId);
      const account = await tx.findOneOrFail(Account, { id: accountId }, { refresh: true });
      const work = await uninvoicedWork(tx, accountId, before);
      const refunds = await uncreditedRefunds(tx, accountId, before);
      const carried = await this.carriedCredit(tx, accountId);
      if (!work.length && !refunds.length) return null;
      const lines: InvoiceLine[] = work.map((item) => ({
        kind: item.kind,
        id: item.ownerId,
        number: item.number,
        reference: item.reference,
        purchaseOrder: item.purchaseOrder,
        description: item.description,
        amountCents: item.amountCents,
      }));
      const credits: InvoiceCredit[] = refunds.map((refund) => ({
        number: refund.number,
        description: `Refund on ${refund.number}`,
        amountCents: refund.amountCents,
      }));
      if (carried > 0)
        credits.push({ number: '-', description: 'Credit carried from the last invoice', amountCents: carried });
      const linesCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
      const creditCents = credits.reduce((sum, credit) => sum + credit.amountCents, 0);
      const period = monthStart(periodOf);
      const number = `INV-${monthKey(issuedAt)}-${String(await nextInvoiceNumber(tx, monthKey(issuedAt))).padStart(4, '0')}`;
      const totalCents = Math.max(0, linesCents - creditCents);
      const terms = account.billingTerms === BillingTerms.CHECKOUT ? BillingTerms.NET_30 : account.billingTerms;
      const invoice = tx.create(Invoice, {
        number,
        account,
        periodStart: period,
        issuedAt,
        dueAt: new Date(issuedAt.getTime() + TERMS_DAYS[terms] * DAY_MS),
        lines,
        credits,
        totalCents,
        carriedCreditCents: Math.max(0, creditCents - linesCents),
        currency: work[0]?.currency ?? 'USD',
        status: totalCents === 0 ? InvoiceStatus.PAID : InvoiceStatus.OPEN,
        paidAt: totalCents === 0 ? issuedAt : null,
      });
      await tx.flush();
      if (work.length)
        await tx.nativeUpdate(Payment, { id: { $in: work.map((item) => item.paymentId) } }, { invoiceId: invoice.id });
      if (refunds.length)
        await tx.nativeUpdate(
          PaymentRefund,
          { id: { $in: refunds.map((refund) => refund.refundId) } },
          { invoiceId: invoice.id },
        );
      this.deps.audit.record(tx, actor, {
        action: 'invoice.close',
        resourceType: 'invoice',
        resourceId: invoice.id,
        toState: invoice.status,
        details: { account_id: accountId, number, total_cents: totalCents },
      });
      // Raised with the issue: what its subscribers write (the e-mail) exists exactly when the invoice does.
      await this.deps.events.raise(tx, { kind: 'issued', invoice });
      return invoice;
    });
  }

  /** Credit past the lines of the account's last invoice, not voided: taken off the next one. */
  private async carriedCredit(em: EntityManager, accountId: string): Promise<number> {
    const last = await em.findOne(
      Invoice,
      { account: accountId, status: { $ne: InvoiceStatus.VOID } },
      { orderBy: { issuedAt: 'desc', id: 'desc' } },
    );
    return last?.carriedCreditCents ?? 0;
  }

  /** The account's invoices, newest first, paginated in the database (index `invoices_account_status_issued`). */
  list(ctx: Ctx, command: ListInvoices): Promise<Page<Invoice>> {
    const account = requireAccount(ctx.actor, 'invoices.read');
    const where: FilterQuery<Invoice> = command.status ? { account, status: command.status } : { account };
    return paginate(ctx.em, Invoice, where, pageRequest(command), { orderBy: { issuedAt: 'desc', id: 'desc' } });
  }

  async get(ctx: Ctx, id: unknown): Promise<Invoice> {
    const account = requireAccount(ctx.actor, 'invoices.read');
    if (!isId(id)) throw new NotFoundError();
    const invoice = await ctx.em.findOne(Invoice, { id, account });
    if (!invoice) throw new NotFoundError();
    return invoice;
  }

  /** The invoice a signed download link names, for its PDF; null when there is none. */
  find(em: EntityManager, id: string): Promise<Invoice | null> {
    return isId(id) ? em.findOne(Invoice, { id }, { populate: ['account'] }) : Promise.resolve(null);
  }

  /**
   * Staff: every account's invoices, newest first, by account, status, or overdue (open and past due); each with its
   * account, joined in the page's statement, so a list that shows whose invoice it is costs no statement per row. Each
   * filter's sort has its index (`invoices_issued`, `invoices_status_issued`, `invoices_account_*`).
   */
  staffList(ctx: Ctx, command: StaffInvoices): Promise<Page<Invoice>> {
    requireStaff(ctx.actor, 'staffInvoices');
    const where: FilterQuery<Invoice> = {
      ...(command.accountId ? { account: command.accountId } : {}),
      ...(command.status ? { status: command.status } : {}),
      ...(command.overdue ? { status: InvoiceStatus.OPEN, dueAt: { $lt: new Date() } } : {}),
    };
    return paginate(ctx.em, Invoice, where, pageRequest(command), {
      orderBy: { issuedAt: 'desc', id: 'desc' },
      populate: ['account'],
      strategy: LoadStrategy.JOINED,
    });
  }

  /** Staff: whose invoice it is; a list loaded it with the page (the identity map answers), one invoice reads it. */
  account(ctx: Ctx, invoice: Pick<Invoice, 'account'>): Promise<Account> {
    requireStaff(ctx.actor, 'Invoice.account');
    return accountOf(ctx.em, invoice);
  }

  /** Money received against an open invoice; paid when the payments reach the total; more than is due is refused. */
  async recordPayment(ctx: Ctx, id: unknown, command: RecordInvoicePayment): Promise<Invoice> {
    requireStaff(ctx.actor, 'recordInvoicePayment');
    return this.changeLocked(ctx, id, (em, invoice) => {
      if (invoice.status !== InvoiceStatus.OPEN)
        throw ValidationError.of('status', `The invoice is ${invoice.status}: only an open invoice takes payments.`);
      const due = invoice.totalCents - invoice.paidCents;
      if (command.amountCents > due)
        throw ValidationError.of(
          'amount_cents',
          `At most ${due} cents (${formatMoney(due, invoice.currency)}) is due on this invoice.`,
        );
      const from = invoice.status;
      invoice.paidCents += command.amountCents;
      if (invoice.paidCents === invoice.totalCents)
        Object.assign(invoice, { status: InvoiceStatus.PAID, paidAt: new Date() });
      this.deps.audit.record(em, ctx.actor, {
        action: 'invoice.payment',
        resourceType: 'invoice',
        resourceId: invoice.id,
        fromState: from,
        toState: invoice.status,
        details: { amount_cents: command.amountCents, method: command.method, reference: command.reference ?? null },
      });
    });
  }

  /**
   * Withdraws an open invoice issued in error, with nothing paid of it: its work and refunds are not invoiced any more,
   * so the next close invoices them again.
   */
  async void(ctx: Ctx, id: unknown, { reason }: VoidInvoice): Promise<Invoice> {
    requireStaff(ctx.actor, 'voidInvoice');
    return this.changeLocked(ctx, id, async (em, invoice) => {
      if (invoice.status !== InvoiceStatus.OPEN || invoice.paidCents > 0)
        throw ValidationError.of('status', 'Only an open invoice with nothing paid of it can be voided.');
      Object.assign(invoice, { status: InvoiceStatus.VOID, voidReason: reason });
      await em.nativeUpdate(Payment, { invoiceId: invoice.id }, { invoiceId: null });
      await em.nativeUpdate(PaymentRefund, { invoiceId: invoice.id }, { invoiceId: null });
      this.deps.audit.record(em, ctx.actor, {
        action: 'invoice.void',
        resourceType: 'invoice',
        resourceId: invoice.id,
        fromState: InvoiceStatus.OPEN,
        toState: InvoiceStatus.VOID,
        details: { reason },
      });
    });
  }

  /** Each invoice newly overdue is marked and raised once, so its account is told once (a schedule); how many. */
  async notifyOverdue(em: EntityManager, now = new Date()): Promise<number> {
    return retryingTransaction(em.fork(), async (tx) => {
      const due = await tx.find(
        Invoice,
        { status: InvoiceStatus.OPEN, dueAt: { $lt: now }, overdueNotifiedAt: null },
        { populate: ['account'], limit: 100, lockMode: LockMode.PESSIMISTIC_WRITE_OR_FAIL },
      );
      for (const invoice of due) {
        invoice.overdueNotifiedAt = now;
        await this.deps.events.raise(tx, { kind: 'overdue', invoice });
      }
      return due.length;
    });
  }

  private changeLocked(
    ctx: Ctx,
    id: unknown,
    change: (em: EntityManager, invoice: Invoice) => void | Promise<void>,
  ): Promise<Invoice> {
    if (!isId(id)) throw new NotFoundError();
    return retryingTransaction(ctx.em, async (em) => {
      const invoice = await em.findOne(Invoice, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!invoice) throw new NotFoundError();
      await change(em, invoice);
      return invoice;
    });
  }
}
