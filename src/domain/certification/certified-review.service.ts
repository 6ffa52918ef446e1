import type { EntityManager } from '@mikro-orm/core';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Account } from '../identity/account.entity';
import { groupedBy } from '../shared/grouped';
import { requireStaff } from '../identity/guards';
import { ServiceType } from '../catalog/catalog.enums';
import { detectFormat, EXTENSIONS, JPEG, PDF, PNG } from '../../documents/formats';
import { AttachmentOwner, FileAttachment } from '../files/file-attachment.entity';
import { FileType, type StoredFile } from '../files/file.entity';
import type { FilesService } from '../files/files.service';
import type { ReceivedUpload } from '../files/receive-upload';
import type { Ctx } from '../identity/context';
import { NotFoundError, ValidationError, type FieldErrors } from '../../shared/errors';
import { isId } from '../shared/ids';
import { requireAssigned } from '../identity/staff-permissions';
import type { StaffUser } from '../identity/staff-user.entity';
import { translatedName } from '../translation/translation.service';
import type { Certification, CertificateService, PreparedCertificate } from './certificate.service';
import type { PendingCertificates } from './pending-certificates';
import { Notarization } from './notarization.entity';
import type { RecordNotarization } from './certification.commands';
import { Order, OrderStatus } from '../orders/order.entity';
import type { OrderService } from '../orders/order.service';
import { footerFormats } from '../../documents/footers/translation-footer';
import { ReviewKind, TranslationReview } from './translation-review.entity';

export const NOTARIZATION = 'notarization';

/** What a notarized certificate's scan may be: a PDF or a photo of the paper (D21). */
const SCAN_FORMATS: readonly string[] = [PDF, JPEG, PNG];

/** Staff review of certified work (D10, D19, D21): review each translation, record notarization, then complete with a certificate (D20). */
export class CertifiedReviewService {
  constructor(
    private readonly deps: {
      files: FilesService;
      orders: OrderService;
      certificates: CertificateService;
      pending: PendingCertificates;
    },
  ) {}

  /**
   * Replaces the translation of one source file with a reviewed one, which counts as its review (D19). Allowed in
   * review and on hold (an order held for an unreadable document is finished this way), and in processing while a
   * certified scan waits for its translator (D30): the translator's file for the last source without one moves the
   * order to review. `sourceFileId` may be left out when there is one source.
   */
  async attachReviewedTranslation(
    ctx: Ctx,
    orderId: unknown,
    input: { stream: Readable; sourceFileId?: unknown },
  ): Promise<Order> {
    const staff = requireStaff(ctx.actor, 'attachReviewedTranslation');
    const upload = await this.deps.files.receive(input.stream);
    try {
      const path = acceptedPath(upload, 'file');
      const format = await detectFormat(path);
      if (!format) throw ValidationError.of('file', 'The file must be a PDF, DOCX, JPEG or PNG document.');
      return await this.inLockedOrder(ctx, orderId, async (em, order, files) => {
        this.deps.orders.lifecycle.assertAction(order, 'attach_reviewed_translation');
        const sources = files.filter((file) => file.type === FileType.SOURCE);
        const source =
          input.sourceFileId === undefined && sources.length === 1
            ? sources[0]
            : sources.find((file) => file.id === input.sourceFileId);
        if (!source)
          throw ValidationError.of(
            'source_file_id',
            "The source file id field must name one of the order's source files.",
          );
        for (const old of files.filter((file) => file.derivedFromId === source.id)) {
          await em.nativeDelete(FileAttachment, { file: old, order });
          await em.nativeDelete(TranslationReview, { fileId: old.id });
        }
        const reviewed = await this.deps.files.storeProduced(em, {
          account: await em.findOneOrFail(Account, { id: order.account.id }),
          type: FileType.TRANSLATION,
          // Named for the client as the machine's would be (D30), whatever name the reviewer's copy had.
          name: translatedName(source.name, order.targetLanguage, `.${EXTENSIONS[format]}`),
          path,
          derivedFromId: source.id,
        });
        await this.deps.files.attach(em, reviewed, AttachmentOwner.ORDER, order.id);
        await this.review(em, order, reviewed, staff, ReviewKind.REPLACED);
        await this.deps.orders.lifecycle.record(
          em,
          order,
          order.status,
          { actor: ctx.actor, action: 'attach_reviewed_translation' },
          { file_id: reviewed.id, source_file_id: source.id },
        );
        if (order.status === OrderStatus.PROCESSING)
          await this.deps.orders.finishIfTranslated(em, order, { actor: ctx.actor, action: 'translated' });
      });
    } finally {
      if (!upload.tooLarge) await rm(upload.path, { force: true });
    }
  }

  /** The machine translation is right as it is (D19): reviewed by the caller, now. */
  async approveTranslation(ctx: Ctx, fileId: unknown): Promise<Order> {
    const staff = requireStaff(ctx.actor, 'approveTranslation');
    if (!isId(fileId)) throw new NotFoundError();
    const attachment = await ctx.em.findOne(
      FileAttachment,
      { file: fileId, order: { $ne: null } },
      { populate: ['file'] },
    );
    if (attachment?.file.type !== FileType.TRANSLATION) throw new NotFoundError();
    return this.inLockedOrder(ctx, attachment.order!.id, async (em, order, files) => {
      this.deps.orders.lifecycle.assertAction(order, 'approve_translation');
      const file = files.find((candidate) => candidate.id === fileId);
      if (!file) throw new NotFoundError(); // replaced meanwhile
      await this.review(em, order, file, staff, ReviewKind.APPROVED);
      await this.deps.orders.lifecycle.record(
        em,
        order,
        order.status,
        { actor: ctx.actor, action: 'approve_translation' },
        { file_id: file.id },
      );
    });
  }

  /** The reviews of each order's translations (one per file), for many orders in one statement. */
  async reviews(ctx: Ctx, orderIds: readonly string[]): Promise<TranslationReview[][]> {
    requireStaff(ctx.actor, 'Order.reviews');
    const reviews = await ctx.em.find(
      TranslationReview,
      { order: { $in: [...orderIds] } },
      { orderBy: { reviewedAt: 'asc', fileId: 'asc' } },
    );
    return groupedBy(orderIds, reviews, (review) => review.order.id);
  }

  /** The notarization recorded on each order (D21), or null, for many orders in one statement. */
  async notarizations(ctx: Ctx, orderIds: readonly string[]): Promise<(Notarization | null)[]> {
    requireStaff(ctx.actor, 'Order.notarization');
    const found = await ctx.em.find(Notarization, { order: { $in: [...orderIds] } });
    return groupedBy(orderIds, found, (notarization) => notarization.order.id).map(([one]) => one ?? null);
  }

  /**
   * D21: the notarization of an order that carries the add-on, recorded (or corrected) before completion, with
   * the notarized scan as a `certificate` file of the order when one is uploaded.
   */
  async recordNotarization(
    ctx: Ctx,
    orderId: unknown,
    details: RecordNotarization,
    scan?: { stream: Readable },
  ): Promise<Order> {
    const staff = requireStaff(ctx.actor, 'recordNotarization');
    const upload = scan ? await this.deps.files.receive(scan.stream) : undefined;
    // The bytes of a scan the new one replaced, removed once the replacement has committed.
    const replacedKeys: string[] = [];
    try {
      const scanPath = upload ? acceptedPath(upload, 'scan') : undefined;
      const scanFormat = scanPath && (await detectFormat(scanPath));
      if (scanPath && !SCAN_FORMATS.includes(scanFormat ?? ''))
        throw ValidationError.of('scan', 'The scan must be a PDF document or a JPEG or PNG image.');
      const order = await this.inLockedOrder(ctx, orderId, async (em, order) => {
        if (!order.addons.some((line) => line.code === NOTARIZATION))
          throw ValidationError.of('order', 'The order has no notarization add-on.');
        this.deps.orders.lifecycle.assertAction(order, 'record_notarization');
        const recorded = { ...details, recordedBy: staff, recordedAt: new Date() };
        const standing = await em.findOne(Notarization, { order });
        const notarization = standing
          ? Object.assign(standing, recorded)
          : em.create(Notarization, { order, ...recorded });
        if (scanPath && scanFormat) {
          const account = await em.findOneOrFail(Account, { id: order.account.id });
          // A notarization has one scan: a new one replaces it, where each was added to the order's files.
          const replaced = notarization.scan;
          notarization.scan = await this.deps.files.storeProduced(em, {
            account,
            type: FileType.CERTIFICATE,
            // Named for the client by what it is (D30), not by the notary's file name.
            name: `${order.number}-notarization.${EXTENSIONS[scanFormat]}`,
            path: scanPath,
          });
          await this.deps.files.attach(em, notarization.scan, AttachmentOwner.ORDER, order.id);
          em.persist(notarization);
          await em.flush();
          if (replaced) replacedKeys.push(...(await this.deps.files.removeProduced(em, replaced)));
        }
        em.persist(notarization);
        await em.flush();
        await this.deps.orders.lifecycle.record(
          em,
          order,
          order.status,
          { actor: ctx.actor, action: 'record_notarization' },
          { ...details, notarized_at: details.notarizedAt.toISOString(), scan_file_id: notarization.scan?.id ?? null },
        );
      });
      await this.deps.files.discardBytes(replacedKeys);
      return order;
    } finally {
      if (upload && !upload.tooLarge) await rm(upload.path, { force: true });
    }
  }

  /**
   * in_review -> completed (D19, D20): refused, naming each file, while a translation is missing or unreviewed,
   * and while an ordered notarization is unrecorded. Then every translation gets its certification footer and
   * the order its certificate: the one staff uploaded (a PDF), or one generated and signed now. Intent, work,
   * apply (docs/architecture.md "How a certificate is issued"): the checks and the intent are committed with the
   * order locked; the stamping, drawing, signing and storing run with no lock held; the result is applied with
   * the order locked again, or, if the order moved on meanwhile, dropped with the intent.
   */
  async complete(ctx: Ctx, orderId: unknown, certificate?: { stream: Readable }): Promise<Order> {
    const staff = requireStaff(ctx.actor, 'completeCertifiedOrder');
    const upload = certificate ? await this.deps.files.receive(certificate.stream) : undefined;
    try {
      const uploadedPath = upload ? acceptedPath(upload, 'certificate') : undefined;
      if (uploadedPath && (await detectFormat(uploadedPath)) !== PDF)
        throw ValidationError.of('certificate', 'The certificate must be a PDF document.');
      let certification!: Certification;
      let basis!: Basis;
      await this.inLockedOrder(ctx, orderId, async (em, order, files) => {
        if (order.serviceType !== ServiceType.CERTIFIED)
          throw ValidationError.of('order', 'Only certified orders are completed by staff.');
        // Staff complete only reviewed work (the table's guard), checked before the certificate is made.
        this.deps.orders.lifecycle.check(order, OrderStatus.COMPLETED, { actor: ctx.actor, action: 'complete' });
        const documents = certifiedDocuments(files);
        const notarization = await em.findOne(Notarization, { order });
        const errors = await this.completionErrors(em, order, documents, notarization, staff);
        if (Object.keys(errors).length) throw new ValidationError(errors);
        basis = basisOf(documents, notarization);
        certification = {
          code: await this.deps.pending.begin(em, order),
          order,
          account: await em.findOneOrFail(Account, { id: order.account.id }),
          documents: documents as Certification['documents'],
          signer: staff,
          notarization,
          uploadedPath,
        };
      });
      return await this.certify(ctx, certification, basis);
    } finally {
      if (upload && !upload.tooLarge) await rm(upload.path, { force: true });
    }
  }

  /** The work and its application, once the intent is committed; whatever refuses or fails, the intent and the new bytes go. */
  private async certify(ctx: Ctx, certification: Certification, basis: Basis): Promise<Order> {
    const { code } = certification;
    let prepared: PreparedCertificate;
    try {
      prepared = await this.deps.certificates.prepare(ctx.em, certification);
    } catch (error) {
      await this.deps.pending.release(ctx.em, code);
      throw error;
    }
    let replacedKeys: string[] = [];
    try {
      const order = await this.inLockedOrder(ctx, certification.order.id, async (em, order, files) => {
        this.deps.orders.lifecycle.check(order, OrderStatus.COMPLETED, { actor: ctx.actor, action: 'complete' });
        await this.deps.pending.assertHeld(em, order, code);
        const errors = changedSince(
          basis,
          basisOf(certifiedDocuments(files), await em.findOne(Notarization, { order })),
        );
        if (Object.keys(errors).length) throw new ValidationError(errors);
        replacedKeys = await this.deps.certificates.issue(em, order, files, certification, prepared);
        await this.deps.pending.end(em, code);
        await this.deps.orders.lifecycle.move(em, order, OrderStatus.COMPLETED, {
          actor: ctx.actor,
          action: 'complete',
        });
      });
      await this.deps.files.discardBytes(replacedKeys);
      return order;
    } catch (error) {
      await this.deps.certificates.discard(prepared);
      await this.deps.pending.release(ctx.em, code);
      throw error;
    }
  }

  /**
   * D19: every source translated, every translation reviewed and able to carry the footer; D21: notarization
   * recorded when ordered; D28: certification is personal, so the completer has credentials on their profile and
   * reviewed (approved or replaced) at least one of the translations they certify.
   */
  private async completionErrors(
    em: EntityManager,
    order: Order,
    documents: { source: StoredFile; translation?: StoredFile }[],
    notarization: Notarization | null,
    completer: StaffUser,
  ): Promise<FieldErrors> {
    const reviews = await em.find(TranslationReview, { order });
    const reviewed = new Set(reviews.map((review) => review.fileId));
    const files = documents.flatMap(({ source, translation }) => {
      if (!translation) return [`${source.name} has no translation yet.`];
      if (!reviewed.has(translation.id))
        return [`${translation.name} has not been reviewed: approve it or attach a reviewed translation.`];
      if (!footerFormats.includes(translation.mimeType))
        return [`${translation.name} cannot carry the certification footer: attach it as a PDF or DOCX document.`];
      return [];
    });
    const notarizationOrdered = order.addons.some((line) => line.code === NOTARIZATION);
    return {
      ...(files.length ? { files } : {}),
      ...(notarizationOrdered && !notarization
        ? { notarization: ['Notarization was ordered: record it before completing the order.'] }
        : {}),
      ...(completer.credentials
        ? {}
        : {
            credentials: ['Add your credentials to your staff profile: the certificate prints them under your name.'],
          }),
      ...(reviews.some((review) => review.reviewer.id === completer.id)
        ? {}
        : { reviewer: ['You certify what you complete: approve or replace at least one of its translations first.'] }),
    };
  }

  private async review(
    em: EntityManager,
    order: Order,
    file: StoredFile,
    reviewer: StaffUser,
    kind: ReviewKind,
  ): Promise<void> {
    await em.upsert(TranslationReview, { fileId: file.id, order, reviewer, kind, reviewedAt: new Date() });
  }

  /** Locks the order and hands its files to `work`; a translator works only on their own assignments (D28). */
  private inLockedOrder(
    ctx: Ctx,
    orderId: unknown,
    work: (em: EntityManager, order: Order, files: StoredFile[]) => Promise<void>,
  ): Promise<Order> {
    if (!isId(orderId)) throw new NotFoundError();
    const staff = requireStaff(ctx.actor);
    return this.deps.orders.lifecycle.change(ctx.em, { id: orderId }, async (em, order) => {
      requireAssigned(staff, order.assignee?.id);
      const files = (await this.deps.orders.filesOfMany(em, [order.id])).get(order.id) ?? [];
      await work(em, order, files);
    });
  }
}

/** Each source with its translation, listed by source name on the certificate, whatever order the files were attached in. */
function certifiedDocuments(files: StoredFile[]): { source: StoredFile; translation?: StoredFile }[] {
  return files
    .filter((file) => file.type === FileType.SOURCE)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
    .map((source) => ({ source, translation: files.find((file) => file.derivedFromId === source.id) }));
}

/**
 * What a certificate is made from, as text read at once (the entities themselves are refreshed by later reads): each
 * source with its translation's id and bytes, and the notarization as last recorded.
 */
interface Basis {
  files: string;
  notarization: string;
}

function basisOf(
  documents: { source: StoredFile; translation?: StoredFile }[],
  notarization: Notarization | null,
): Basis {
  return {
    files: documents
      .map(({ source, translation }) => `${source.id}:${translation?.id}:${translation?.storageKey}`)
      .join(),
    notarization: notarization ? `${notarization.id}:${notarization.recordedAt.toISOString()}` : '',
  };
}

/** What changed while the certificate was being made (a translation replaced, the notarization recorded again): it would not be true. */
function changedSince(before: Basis, now: Basis): FieldErrors {
  return {
    ...(before.files === now.files
      ? {}
      : { files: ['A translation was replaced while the certificate was being made: complete the order again.'] }),
    ...(before.notarization === now.notarization
      ? {}
      : {
          notarization: [
            'The notarization was recorded again while the certificate was being made: complete the order again.',
          ],
        }),
  };
}

function acceptedPath(upload: ReceivedUpload, field: string): string {
  if (upload.tooLarge) throw ValidationError.of(field, 'The file is too large.');
  if (upload.size === 0) throw ValidationError.of(field, `The ${field} must not be empty.`);
  return upload.path;
}
