import type { EntityManager } from '@mikro-orm/core';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { PdfSigner } from '../../providers/signing/pdf-signer';
import { Account } from '../accounts/account.entity';
import { requireStaff } from '../accounts/authentication.service';
import { ServiceType } from '../catalog/catalog.enums';
import { detectFormat, PDF } from '../files/analysis/formats';
import { AttachmentOwner, FileAttachment } from '../files/file-attachment.entity';
import { FileType, type StoredFile } from '../files/file.entity';
import type { FilesService } from '../files/files.service';
import type { ReceivedUpload } from '../files/receive-upload';
import type { Ctx } from '../shared/context';
import { NotFoundError, ValidationError } from '../shared/errors';
import { isId, newId } from '../shared/ids';
import { translatedName } from '../translation/translation.service';
import { certificatePdf } from './certificate';
import { Order, OrderStatus } from './order.entity';
import type { OrderService } from './order.service';

/** Staff review of certified work (D10): replace a machine translation, then complete with a certificate. */
export class CertifiedReviewService {
  constructor(private readonly deps: { files: FilesService; orders: OrderService; signer: PdfSigner }) {}

  /**
   * Replaces the translation of one source file with a reviewed one. Allowed in review and on hold (an order held
   * for an unreadable document is finished this way); `sourceFileId` may be left out when there is one source.
   */
  async attachReviewedTranslation(ctx: Ctx, orderId: unknown, input: { stream: Readable; filename?: string; sourceFileId?: unknown }): Promise<Order> {
    requireStaff(ctx.actor);
    const upload = await this.deps.files.receive(input.stream);
    try {
      const path = this.acceptedPath(upload, 'file');
      return await this.inLockedOrder(ctx, orderId, 'attach_reviewed_translation', async (em, order, files) => {
        if (order.status !== OrderStatus.IN_REVIEW && order.status !== OrderStatus.ON_HOLD) {
          throw ValidationError.of('status', `Cannot attach a translation while the status is ${order.status}.`);
        }
        const sources = files.filter((file) => file.type === FileType.SOURCE);
        const source = input.sourceFileId === undefined && sources.length === 1 ? sources[0] : sources.find((file) => file.id === input.sourceFileId);
        if (!source) throw ValidationError.of('source_file_id', "The source file id field must name one of the order's source files.");
        for (const old of files.filter((file) => file.derivedFromId === source.id)) {
          await em.nativeDelete(FileAttachment, { file: old, ownerType: AttachmentOwner.ORDER, ownerId: order.id });
        }
        const reviewed = await this.deps.files.storeProduced(em, {
          account: await em.findOneOrFail(Account, { id: order.account.id }),
          type: FileType.TRANSLATION,
          name: input.filename ?? translatedName(source.name, order.targetLanguage),
          path,
          derivedFromId: source.id,
        });
        await this.deps.files.attach(em, reviewed, AttachmentOwner.ORDER, order.id);
      });
    } finally {
      if (!upload.tooLarge) await rm(upload.path, { force: true });
    }
  }

  /** in_review -> completed with a certificate: the one staff upload (a PDF), or one generated now. */
  async complete(ctx: Ctx, orderId: unknown, certificate?: { stream: Readable }): Promise<Order> {
    const staff = requireStaff(ctx.actor);
    const upload = certificate ? await this.deps.files.receive(certificate.stream) : undefined;
    const generated = join(this.deps.files.tempDir, `ltk-certificate-${newId()}.pdf`);
    try {
      const uploadedPath = upload ? this.acceptedPath(upload, 'certificate') : undefined;
      if (uploadedPath && (await detectFormat(uploadedPath)) !== PDF) throw ValidationError.of('certificate', 'The certificate must be a PDF document.');
      return await this.inLockedOrder(ctx, orderId, null, async (em, order, files) => {
        if (order.serviceType !== ServiceType.CERTIFIED) throw ValidationError.of('order', 'Only certified orders are completed by staff.');
        // Staff complete only reviewed work; the table alone would also allow completing from processing.
        if (order.status !== OrderStatus.IN_REVIEW) throw ValidationError.of('status', `Cannot complete the order while the status is ${order.status}.`);
        const sources = files.filter((file) => file.type === FileType.SOURCE);
        const documents = sources.map((source) => ({ source: source.name, translation: files.find((file) => file.derivedFromId === source.id)?.name }));
        if (documents.some((document) => !document.translation)) throw ValidationError.of('order', 'Every source file needs a translation first.');
        if (!uploadedPath) {
          await writeFile(
            generated,
            await certificatePdf({
              orderNumber: order.number,
              sourceLanguage: order.sourceLanguage,
              targetLanguage: order.targetLanguage,
              documents: documents as { source: string; translation: string }[],
              signer: staff.name,
              date: new Date(),
              notarized: order.addons.some((line) => line.code === 'notarization'),
            }, this.deps.signer),
          );
        }
        const account = await em.findOneOrFail(Account, { id: order.account.id });
        const file = await this.deps.files.storeProduced(em, {
          account,
          type: FileType.CERTIFICATE,
          name: `${order.number}-certificate.pdf`,
          path: uploadedPath ?? generated,
        });
        await this.deps.files.attach(em, file, AttachmentOwner.ORDER, order.id);
        await this.deps.orders.lifecycle.move(em, order, OrderStatus.COMPLETED, { actor: ctx.actor, action: 'complete' });
      });
    } finally {
      await rm(generated, { force: true });
      if (upload && !upload.tooLarge) await rm(upload.path, { force: true });
    }
  }

  private acceptedPath(upload: ReceivedUpload, field: string): string {
    if (upload.tooLarge) throw ValidationError.of(field, 'The file is too large.');
    if (upload.size === 0) throw ValidationError.of(field, `The ${field} must not be empty.`);
    return upload.path;
  }

  /** Locks the order and hands its files to `work`; `action` is audited when the work is not a status move. */
  private inLockedOrder(ctx: Ctx, orderId: unknown, action: string | null, work: (em: EntityManager, order: Order, files: StoredFile[]) => Promise<void>): Promise<Order> {
    if (!isId(orderId)) throw new NotFoundError();
    return this.deps.orders.lifecycle.change(ctx.em, { id: orderId }, async (em, order) => {
      const files = (await this.deps.orders.filesOfMany(em, [order.id])).get(order.id) ?? [];
      await work(em, order, files);
      if (action) this.deps.orders.lifecycle.record(em, order, order.status, { actor: ctx.actor, action });
    });
  }
}
