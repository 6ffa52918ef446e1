import { LockMode, type EntityManager } from '@mikro-orm/core';
import {
  deletableFiles,
  lockOrderFiles,
  lockSharingOrders,
  markPurged,
  markPurging,
  ordersDue,
  ordersOfFile,
  scheduleAccountExpiry,
  scheduleOrderExpiry,
  unfinishedPurges,
} from '../orders/document-retention.queries';
import type { JobQueue } from '../../jobs/job-queue';
import { NotFoundError, ValidationError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { AuditService } from '../audit/audit.service';
import { FileAttachment } from '../files/file-attachment.entity';
import { StoredFile, type PurgeReason } from '../files/file.entity';
import type { FilesService } from '../files/files.service';
import { Account } from '../identity/account.entity';
import type { Actor, Ctx } from '../identity/context';
import { requireAccount, requireStaff } from '../identity/guards';
import { Order } from '../orders/order.entity';
import { FINISHED_ORDER_STATUSES } from '../orders/order.states';
import { isId } from '../shared/ids';
import { retryingTransaction } from '../shared/transaction';
import type { SetLegalHold, SetRetention } from './retention.commands';

/** Orders decided, or files finished, per statement of the daily run: it loops until none is left. */
const BATCH = 100;

export interface RetentionRun {
  /** Orders whose documents' deletion was decided in this run. */
  orders: number;
  /** Files whose bytes this run deleted and recorded. */
  purged: number;
}

/**
 * Keeping and deleting client documents (docs/decisions.md, D33). A deletion goes in three steps, so that a storage
 * failure at any point leaves every file either readable and kept, or refused and on its way out:
 *
 * 1. Decided, in one transaction with the order (and the orders sharing its files) locked: each file to delete gets
 *    its `purge_reason`, the order its `documents_deleted_at`, and a `purge-files` job is queued. From this commit no
 *    link is given and no download served (410): the decision is final.
 * 2. The bytes are deleted, with no transaction open: the file's, and its unstamped copy's (D30).
 * 3. Recorded, per file, once its bytes are gone: `purged_at` and the audit row `file.purged`.
 *
 * A failure in step 2 leaves the file decided and not recorded: the `purge-files` job (retried with backoff), the next
 * daily run and a repeated `DELETE /orders/{id}/documents` take it up again; deleting bytes already gone is no error.
 * A file is therefore never recorded as purged while its bytes remain, nor readable once its deletion was decided.
 */
export class RetentionService {
  constructor(
    private readonly deps: {
      files: FilesService;
      audit: AuditService;
      queue: JobQueue;
      logger: Logger;
    },
  ) {}

  /** An admin member sets their account's period (days, or null to keep documents). Audited. */
  setRetention(ctx: Ctx, command: SetRetention): Promise<Account> {
    const account = requireAccount(ctx.actor, 'account.retention');
    return this.changeRetention(ctx, account.id, command);
  }

  /** Staff admins set any account's period. Audited. */
  setAccountRetention(ctx: Ctx, accountId: unknown, command: SetRetention): Promise<Account> {
    requireStaff(ctx.actor, 'setAccountRetention');
    if (!isId(accountId)) throw new NotFoundError();
    return this.changeRetention(ctx, accountId, command);
  }

  /**
   * Places or releases a legal hold (admin members on their own orders, desk staff on any). A hold keeps every file of
   * the order whatever the period; its release lets the order fall due again from its completion. A hold on an order
   * whose documents were already deleted is refused: there is nothing left to keep.
   */
  async setLegalHold(ctx: Ctx, orderId: unknown, command: SetLegalHold): Promise<Order> {
    const accountId = this.legalHoldCaller(ctx.actor);
    if (!isId(orderId)) throw new NotFoundError();
    return retryingTransaction(ctx.em, async (em) => {
      const order = await em.findOne(
        Order,
        { id: orderId, ...(accountId ? { account: accountId } : {}) },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!order) throw new NotFoundError();
      if (command.on && order.documentsDeletedAt)
        throw ValidationError.of('legal_hold', "The order's documents were already deleted; there is nothing to hold.");
      // A hold the desk placed (a subpoena, a court's order) may protect against the client itself (D33).
      const byStaff = accountId === null;
      if (!byStaff && order.legalHold && order.legalHoldByStaff)
        throw ValidationError.of(
          'legal_hold',
          'The desk placed this legal hold; only the desk can change or release it.',
        );
      const before = order.legalHold;
      Object.assign(order, {
        legalHold: command.on,
        legalHoldReason: command.on ? command.reason! : null,
        legalHoldByStaff: command.on && byStaff,
        updatedAt: new Date(),
      });
      if (command.on) order.documentsExpireAt = null;
      await em.flush();
      if (!command.on) {
        await scheduleOrderExpiry(em, order.id);
        await em.refresh(order);
      }
      this.deps.audit.record(em, ctx.actor, {
        action: command.on ? 'order.legal_hold' : 'order.legal_hold_released',
        resourceType: 'order',
        resourceId: order.id,
        details: { reason: command.reason ?? null, was_held: before },
      });
      await em.flush();
      return order;
    });
  }

  /**
   * `DELETE /orders/{id}/documents`: a completed or cancelled order's documents, now (admin members and keys). Safe to
   * repeat: a deletion already decided is finished. A storage failure answers 503 and leaves it to be retried.
   */
  async deleteDocuments(ctx: Ctx, orderId: unknown, now = new Date()): Promise<void> {
    const account = requireAccount(ctx.actor, 'orders.delete_documents');
    if (!isId(orderId)) throw new NotFoundError();
    const order = await ctx.em.findOne(Order, { id: orderId, account });
    if (!order) throw new NotFoundError();
    const decided = await this.decide(ctx.em, order.id, 'client_request', ctx.actor, now);
    if (decided === null) return;
    await this.finish(ctx.em, ctx.actor, await this.undeletedFilesOf(ctx.em, order.id));
  }

  /**
   * The daily run (a pg-boss schedule, once across all processes): first the deletions decided earlier whose bytes
   * are not all gone, then every order whose documents fell due by `now`, a batch at a time. A storage failure ends the
   * run (the job retries and the next run takes up what is left); another refusal is logged and the run goes on.
   */
  async purgeExpired(em: EntityManager, now = new Date()): Promise<RetentionRun> {
    const run: RetentionRun = { orders: 0, purged: 0 };
    run.purged += await this.finishUnfinished(em);
    const skipped = new Set<string>();
    for (;;) {
      const due = (await ordersDue(em.fork(), now, BATCH + skipped.size)).filter((id) => !skipped.has(id));
      if (!due.length) return run;
      for (const orderId of due) {
        const files = await this.decide(em.fork(), orderId, 'retention', null, now).catch((error: unknown) => {
          this.deps.logger.warn({ err: error, order_id: orderId }, 'documents not deleted');
          return null;
        });
        if (files === null) {
          skipped.add(orderId);
          continue;
        }
        run.orders++;
        run.purged += await this.finish(em, null, files);
      }
    }
  }

  /** The `purge-files` job: every decided deletion whose bytes are not all gone; throws (to be retried) if storage fails. */
  async finishUnfinished(em: EntityManager): Promise<number> {
    let purged = 0;
    for (;;) {
      const ids = await unfinishedPurges(em.fork(), BATCH);
      if (!ids.length) return purged;
      purged += await this.finish(em, null, await em.fork().find(StoredFile, { id: { $in: ids } }));
    }
  }

  /**
   * Step 1, in one transaction: the order locked, then the orders that share its files. Null when the order is not
   * deletable (a refusal for a client's request, nothing for the daily run); else the files decided now.
   */
  private async decide(
    em: EntityManager,
    orderId: string,
    reason: PurgeReason,
    actor: Actor | null,
    now: Date,
  ): Promise<StoredFile[] | null> {
    const explicit = reason === 'client_request';
    return retryingTransaction(em, async (tx) => {
      const order = await tx.findOneOrFail(
        Order,
        { id: orderId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!FINISHED_ORDER_STATUSES.includes(order.status)) {
        if (explicit)
          throw ValidationError.of(
            'status',
            `Only a completed or cancelled order's documents can be deleted; this order is ${order.status}.`,
          );
        return null;
      }
      if (order.legalHold) {
        if (explicit)
          throw ValidationError.of(
            'legal_hold',
            'The order is under a legal hold: its documents are kept until it is released.',
          );
        return null;
      }
      if (order.documentsDeletedAt) return explicit ? [] : null;
      if (!explicit && !(order.documentsExpireAt && order.documentsExpireAt <= now)) return null;
      await lockSharingOrders(tx, order.id);
      await lockOrderFiles(tx, order.id);
      const ids = await deletableFiles(tx, order.id, now);
      await markPurging(tx, ids, reason);
      // The order's answer changes (its files lose their links): its version and `updated_since` must see it.
      Object.assign(order, { documentsDeletedAt: now, documentsExpireAt: null, updatedAt: new Date() });
      this.deps.audit.record(tx, actor, {
        action: 'order.documents_deleted',
        resourceType: 'order',
        resourceId: order.id,
        details: { reason, file_ids: ids },
      });
      await tx.flush();
      if (ids.length) await this.deps.queue.enqueue(tx, 'purge-files', { orderId: order.id });
      return tx.find(StoredFile, { id: { $in: ids } }, { orderBy: { id: 'asc' } });
    });
  }

  /** Steps 2 and 3, file by file: the bytes, then the record and its audit row. Stops at the first storage failure. */
  private async finish(em: EntityManager, actor: Actor | null, files: StoredFile[]): Promise<number> {
    let purged = 0;
    for (const file of files) {
      await this.deps.files.purgeBytes(file);
      const recorded = await retryingTransaction(em.fork(), async (tx) => {
        if (!(await markPurged(tx, file.id, new Date()))) return false;
        this.deps.audit.record(tx, actor, {
          action: 'file.purged',
          resourceType: 'file',
          resourceId: file.id,
          details: { reason: file.purgeReason, order_ids: await ordersOfFile(tx, file.id) },
        });
        await tx.flush();
        return true;
      });
      if (recorded) purged++;
    }
    return purged;
  }

  /** An order's files decided but not yet recorded: a repeated request finishes them. */
  private async undeletedFilesOf(em: EntityManager, orderId: string): Promise<StoredFile[]> {
    const attachments = await em
      .fork()
      .find(
        FileAttachment,
        { order: orderId, file: { purgeReason: { $ne: null }, purgedAt: null } },
        { populate: ['file'], orderBy: { file: { id: 'asc' } } },
      );
    return attachments.map((attachment) => attachment.file);
  }

  private async changeRetention(ctx: Ctx, accountId: string, { days }: SetRetention): Promise<Account> {
    return retryingTransaction(ctx.em, async (em) => {
      const account = await em.findOne(
        Account,
        { id: accountId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!account) throw new NotFoundError();
      const before = account.retentionDays;
      account.retentionDays = days;
      await em.flush();
      // Every finished order not yet deleted falls due again under the new period, in the same transaction.
      await scheduleAccountExpiry(em, account.id);
      this.deps.audit.record(em, ctx.actor, {
        action: 'account.retention',
        resourceType: 'account',
        resourceId: account.id,
        details: { from_days: before, to_days: days },
      });
      await em.flush();
      return account;
    });
  }

  /** The account whose orders the caller may hold (an admin member's), or null for desk staff, who hold any. */
  legalHoldCaller(actor: Actor | null): string | null {
    if (actor?.kind === 'staff') {
      requireStaff(actor, 'setLegalHold');
      return null;
    }
    return requireAccount(actor, 'orders.legal_hold').id;
  }
}
