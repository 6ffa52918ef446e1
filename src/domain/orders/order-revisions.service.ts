import type { EntityManager } from '@mikro-orm/core';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceType } from '../catalog/catalog.enums';
import { AttachmentOwner, FileAttachment } from '../files/file-attachment.entity';
import { FileType, StoredFile } from '../files/file.entity';
import type { FilesService, StoredBytes } from '../files/files.service';
import { Account } from '../identity/account.entity';
import type { Ctx } from '../identity/context';
import { requireAccount } from '../identity/guards';
import { placedBy } from '../identity/placed-by';
import { NO_PROVIDER, Payment, PaymentStatus } from '../payments/payment.entity';
import { NotFoundError, ValidationError } from '../../shared/errors';
import type { EventHub } from '../shared/event-hub';
import { isId, newId } from '../shared/ids';
import type { PolledOrder, RevisionLink } from './order-read';
import { referenceNumber } from '../shared/reference-number';
import { Order, OrderStatus } from './order.entity';
import type { OrderService } from './order.service';
import type { RequestRevision } from './revision.commands';
import type { OrderActivity } from './order-activity';
import { firstDelivery, REVISION_WINDOW_DAYS, revisionWindowClosesAt } from './revision-window';

/** An order's revision links and reference files (D30), as its answer shows them. */
export interface RevisionLinks {
  revisionOf: RevisionLink | null;
  revisions: RevisionLink[];
  referenceFiles: StoredFile[];
}

/** A translation of the original, copied as a draft of the revision: its bytes stored anew, for the same source. */
interface DraftCopy {
  translation: StoredFile;
  bytes: StoredBytes;
}

/**
 * Free revisions of completed orders (D30): a new order linked to the original, total 0 and nothing to pay. A
 * certified revision starts in review with copies of the original's translations as unreviewed drafts; a standard one
 * is translated again. The original stays completed; its row is locked while the revision is made (the lifecycle's
 * lock), so two requests at once make one revision and one 422.
 */
export class OrderRevisionsService {
  constructor(
    private readonly deps: {
      orders: OrderService;
      files: FilesService;
      events: EventHub<OrderActivity>;
      orderPrefix: string;
      turnaroundHours: number;
    },
  ) {}

  async request(ctx: Ctx, originalId: unknown, command: RequestRevision): Promise<PolledOrder> {
    const account = requireAccount(ctx.actor, 'orders.request_revision');
    if (!isId(originalId)) throw new NotFoundError();
    const original = await ctx.em.findOne(Order, { id: originalId, account });
    if (!original) throw new NotFoundError();
    await assertRevisable(ctx.em, original);
    const references = await referenceFiles(ctx.em, account, command.fileIds ?? []);
    // Copied before any lock or transaction (D25): the bytes are stored under intents of their own first.
    const drafts =
      original.serviceType === ServiceType.CERTIFIED
        ? await this.copyTranslations(ctx.em, original).catch(async (error: unknown) => {
            // Its translations deleted meanwhile (D33): refused as a deleted order is, not as a missing file.
            await assertRevisable(ctx.em, await ctx.em.findOneOrFail(Order, { id: original.id }, { refresh: true }));
            throw error;
          })
        : [];
    let revisionId = '';
    try {
      await this.deps.orders.withUniqueNumber(() =>
        this.deps.orders.lifecycle.change(ctx.em, { id: original.id }, async (em, locked) => {
          await assertRevisable(em, locked);
          revisionId = await this.create(em, ctx, locked, { reason: command.reason, references, drafts });
        }),
      );
    } catch (error) {
      // Refused or failed under the lock: no row claims the copies.
      await this.deps.files.discardBytes(drafts.map(({ bytes }) => bytes.storageKey));
      throw error;
    }
    return this.deps.orders.get(ctx, revisionId);
  }

  /**
   * What the answers of many orders read as entities show of revisions (D30), by order id: three statements for a
   * whole page, whatever its size. The polled read has them already (`src/domain/orders/polled-orders.queries.ts`).
   */
  async linksOfMany(em: EntityManager, orderIds: readonly string[]): Promise<Map<string, RevisionLinks>> {
    const ids = [...orderIds];
    const [selves, revisions, references] = await Promise.all([
      em.find(
        Order,
        { id: { $in: ids }, revisionOf: { $ne: null } },
        { populate: ['revisionOf'], fields: ['revisionOf.number', 'revisionOf.status'] },
      ),
      em.find(
        Order,
        { revisionOf: { $in: ids } },
        { fields: ['number', 'status', 'revisionOf'], orderBy: { createdAt: 'asc', id: 'asc' } },
      ),
      em.find(
        FileAttachment,
        { order: { $in: ids }, reference: true },
        { populate: ['file'], orderBy: { createdAt: 'asc', id: 'asc' } },
      ),
    ]);
    const link = ({ id, number, status }: RevisionLink): RevisionLink => ({ id, number, status });
    const links = new Map<string, RevisionLinks>(
      ids.map((id) => [id, { revisionOf: null, revisions: [], referenceFiles: [] }]),
    );
    for (const self of selves) links.get(self.id)!.revisionOf = self.revisionOf && link(self.revisionOf);
    for (const revision of revisions) links.get(revision.revisionOf!.id)?.revisions.push(link(revision));
    for (const reference of references) links.get(reference.order!.id)?.referenceFiles.push(reference.file);
    return links;
  }

  /** The files of `ids` (an order's reference files, whose ids its polled answer read), in that order. */
  async filesById(em: EntityManager, ids: string[]): Promise<StoredFile[]> {
    if (!ids.length) return [];
    const files = await em.find(StoredFile, { id: { $in: ids } });
    return ids.flatMap((id) => files.filter((file) => file.id === id));
  }

  /** In the original's locked transaction: the revision, its empty payment, its files, then its first moves; its id. */
  private async create(
    em: EntityManager,
    ctx: Ctx,
    original: Order,
    input: { reason: string; references: StoredFile[]; drafts: DraftCopy[] },
  ): Promise<string> {
    const id = newId();
    const now = new Date();
    const payment = em.create(Payment, {
      orderId: id,
      provider: NO_PROVIDER,
      description: `Revision of order ${original.number}`,
      amountCents: 0,
      currency: original.currency,
      status: PaymentStatus.CAPTURED,
      paidAt: now,
    });
    const revision = em.create(Order, {
      id,
      number: referenceNumber(this.deps.orderPrefix),
      account: original.account,
      quote: original.quote,
      payment,
      serviceType: original.serviceType,
      sourceLanguage: original.sourceLanguage,
      targetLanguage: original.targetLanguage,
      unitType: original.unitType,
      unitCount: original.unitCount,
      documentPages: original.documentPages,
      scannedPages: original.scannedPages,
      // Nothing is charged: no add-ons are repeated (a new notarization or hard copy is ordered as new work).
      subtotalCents: 0,
      addons: [],
      addonsTotalCents: 0,
      totalCents: 0,
      currency: original.currency,
      reference: original.reference,
      // The client's instructions (D30) still hold for the corrected translation.
      instructions: original.instructions,
      placedBy: placedBy(ctx.actor),
      revisionOf: original,
      revisionReason: input.reason,
      revisionWindowFrom: firstDelivery(original),
      dueAt: new Date(now.getTime() + this.deps.turnaroundHours * 60 * 60 * 1000),
    });
    // The original's answer lists its revisions: touched, so its version (ETag) and `updated_since` see the change.
    original.updatedAt = now;
    em.persist([payment, revision]);
    await em.flush();

    const files = (await this.deps.orders.filesOfMany(em, [original.id])).get(original.id) ?? [];
    for (const source of files.filter((file) => file.type === FileType.SOURCE))
      await this.deps.files.attach(em, source, AttachmentOwner.ORDER, id);
    const owner = em.getReference(Account, original.account.id);
    for (const { translation, bytes } of input.drafts) {
      const draft = await this.deps.files.claimProduced(em, bytes, {
        account: owner,
        type: FileType.TRANSLATION,
        name: translation.name,
        derivedFromId: translation.derivedFromId ?? undefined,
      });
      await this.deps.files.attach(em, draft, AttachmentOwner.ORDER, id);
    }
    for (const file of input.references)
      await this.deps.files.attach(em, file, AttachmentOwner.ORDER, id, { reference: true });

    // Nothing to pay: on to processing (a standard revision is translated again), and a certified one, its drafts in
    // place, on to review.
    const cause = { actor: ctx.actor, action: 'revision_requested', reason: input.reason };
    await this.deps.orders.lifecycle.record(em, original, original.status, cause, { revision_id: id });
    await this.deps.orders.lifecycle.move(em, revision, OrderStatus.PROCESSING, cause, 'request a revision');
    if (revision.serviceType === ServiceType.CERTIFIED)
      await this.deps.orders.finishIfTranslated(em, revision, { actor: null, action: 'translated' });
    // Raised as it stands once made, so the desk hears of it in the same transaction.
    await this.deps.events.raise(em, {
      kind: 'revision_requested',
      original,
      revision,
      reason: input.reason,
      referenceFiles: input.references.length,
    });
    return id;
  }

  /**
   * Each translation the original delivered, as reviewed before its certification footer, stored again for the
   * revision to change freely: the revision's certificate stamps its own footer on it, the only one.
   */
  private async copyTranslations(em: EntityManager, original: Order): Promise<DraftCopy[]> {
    const files = (await this.deps.orders.filesOfMany(em, [original.id])).get(original.id) ?? [];
    const copies: DraftCopy[] = [];
    try {
      for (const translation of files.filter((file) => file.type === FileType.TRANSLATION)) {
        const path = join(this.deps.files.tempDir, `ltk-revision-${newId()}`);
        try {
          await this.deps.files.downloadUnstamped(translation, path);
          copies.push({ translation, bytes: await this.deps.files.storeBytes(path, translation.mimeType) });
        } finally {
          await rm(path, { force: true });
        }
      }
      return copies;
    } catch (error) {
      await this.deps.files.discardBytes(copies.map(({ bytes }) => bytes.storageKey));
      throw error;
    }
  }
}

/**
 * Completed within the window, the latest version of its work, with no revision open: otherwise 422 naming the rule
 * (D30). A revision may itself be revised, within the window of the first delivery: a chain never restarts the 30
 * days. Only the chain's latest delivered version may be revised, so at most one revision of a chain is ever open.
 */
async function assertRevisable(em: EntityManager, original: Order): Promise<void> {
  if (original.status !== OrderStatus.COMPLETED)
    throw ValidationError.of('status', `Only a completed order can be revised; this order is ${original.status}.`);
  const delivered = firstDelivery(original)!;
  if (Date.now() > revisionWindowClosesAt(original)!.getTime())
    throw ValidationError.of(
      'completed_at',
      `A free revision can be asked for within ${REVISION_WINDOW_DAYS} days of the first delivery; this work was delivered on ${delivered.toISOString().slice(0, 10)}.`,
    );
  if (original.documentsDeletedAt)
    throw ValidationError.of(
      'documents',
      "This order's documents were deleted, under the account's retention policy or at its request; order the translation again instead.",
    );
  const later = await em.findOne(
    Order,
    { revisionOf: original.id, status: { $ne: OrderStatus.CANCELLED } },
    { fields: ['number', 'status'], orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  if (later?.status === OrderStatus.COMPLETED)
    throw ValidationError.of(
      'revisions',
      `This order was revised as ${later.number}, which replaces it; ask for a revision of ${later.number} instead.`,
    );
  if (later)
    throw ValidationError.of(
      'revisions',
      `A revision of this order is already open (${later.number}); one revision at a time.`,
    );
}

/** The caller's own uploaded files, by id; anything else is refused as a file the caller does not have (D8). */
async function referenceFiles(em: EntityManager, account: Account, ids: string[]): Promise<StoredFile[]> {
  if (!ids.length) return [];
  const files = await em.find(StoredFile, { id: { $in: ids }, account, type: FileType.SOURCE });
  const missing = ids.findIndex((id) => !files.some((file) => file.id === id));
  if (missing >= 0)
    throw ValidationError.of('file_ids', `The file_ids.${missing} field must be one of your uploaded files.`);
  return ids.map((id) => files.find((file) => file.id === id)!);
}
