import type { EntityManager } from '@mikro-orm/core';
import { rm } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { JobAttempt } from '../../jobs/job-queue';
import type { Logger } from '../../shared/logger';
import type { FileStorage } from '../../providers/storage/file-storage';
import type { EngineCheckpoint, TranslationEngine } from '../../providers/translation/translation-engine';
import { UntranslatableError } from '../../shared/errors';
import { Account } from '../identity/account.entity';
import { AttachmentOwner } from '../files/file-attachment.entity';
import { ServiceType } from '../catalog/catalog.enums';
import { AnalysisStatus, FileType, type StoredFile } from '../files/file.entity';
import type { FilesService } from '../files/files.service';
import { Order, OrderStatus } from '../orders/order.entity';
import type { OrderService } from '../orders/order.service';
import { newId } from '../shared/ids';
import { EngineRequest } from './engine-request.entity';

export interface TranslationDeps {
  engine: TranslationEngine;
  storage: FileStorage;
  files: FilesService;
  orders: OrderService;
  logger: Logger;
}

/** The hold reason of an order whose translate-order job gave up. */
const GAVE_UP = 'The translation engine kept failing; staff will finish this order.';

/**
 * The translate-order job (D11): each source file of a paid order through the engine, its output stored as the
 * order's translation. Safe to run again after a crash: sources already translated are skipped, checked under a
 * lock on the order, so a rerun never duplicates a file, and a document the engine already has is resumed, not
 * sent again (EngineRequest). A certified order's scans wait for a translator (D30); a document the engine still
 * cannot translate, or an engine that keeps failing, puts the order on hold.
 */
export class TranslationService {
  constructor(private readonly deps: TranslationDeps) {}

  async translateOrder(em: EntityManager, orderId: string, attempt: JobAttempt): Promise<void> {
    const order = await em.findOne(Order, { id: orderId });
    if (order?.status !== OrderStatus.PROCESSING) return; // cancelled, held or already done meanwhile
    const files = (await this.deps.orders.filesOfMany(em, [order.id])).get(order.id) ?? [];
    const untranslated = files.filter(
      (file) => file.type === FileType.SOURCE && !files.some((derived) => derived.derivedFromId === file.id),
    );
    // D30: a certified order's scans are translated by a person, who may start at once; the engine drafts the rest.
    const forPeople = order.serviceType === ServiceType.CERTIFIED ? untranslated.filter(needsAPerson) : [];
    if (forPeople.length > 0) await this.awaitTranslator(em, order.id);
    try {
      for (const source of untranslated) {
        if (!forPeople.includes(source)) await this.translateFile(em, order, source);
      }
      await this.inLockedOrder(em, order.id, async (tx, locked) => {
        // Held, cancelled or moved on by another run while the engine worked: the translations are kept and nothing
        // moves, so the job ends instead of failing and being retried (a release queues it again). A scan still
        // waiting for its translator keeps it where it is: the translator's last file moves it on.
        if (locked.status === OrderStatus.PROCESSING) await this.deps.orders.finishIfTranslated(tx, locked);
      });
    } catch (error) {
      if (error instanceof UntranslatableError)
        return this.hold(em, order.id, `Cannot translate automatically: ${error.message}`);
      if (attempt.retryCount >= attempt.retryLimit) {
        this.deps.logger.error({ err: error, order_id: order.id }, 'translation failed on its last try');
        return this.giveUp(em, order.id);
      }
      throw error; // retried with backoff
    }
  }

  /**
   * Holds an order whose translate-order job the queue failed for good without its handler seeing the end: its
   * worker lost, or its time up, on the last try (the job's dead letter, see QUEUES in src/jobs/job-queue.ts).
   */
  giveUp(em: EntityManager, orderId: string): Promise<void> {
    return this.hold(em, orderId, GAVE_UP);
  }

  private async translateFile(em: EntityManager, order: Order, source: StoredFile): Promise<void> {
    const input = join(this.deps.files.tempDir, `ltk-source-${newId()}`);
    const output = join(this.deps.files.tempDir, `ltk-translation-${newId()}`);
    try {
      await this.deps.storage.download(source.storageKey, input);
      await this.deps.engine.translate(
        {
          path: input,
          mimeType: source.mimeType,
          sourceLanguage: order.sourceLanguage,
          targetLanguage: order.targetLanguage,
          outputPath: output,
        },
        await this.checkpoint(em, order, source),
      );
      await this.inLockedOrder(em, order.id, async (tx) => {
        await tx.nativeDelete(EngineRequest, { order: order.id, source: source.id });
        const done = (await this.deps.orders.filesOfMany(tx, [order.id]))
          .get(order.id)
          ?.some((file) => file.derivedFromId === source.id);
        if (done) return; // another run got here first
        const translation = await this.deps.files.storeProduced(tx, {
          account: await tx.findOneOrFail(Account, { id: order.account.id }),
          type: FileType.TRANSLATION,
          name: translatedName(source.name, order.targetLanguage),
          path: output,
          derivedFromId: source.id,
        });
        await this.deps.files.attach(tx, translation, AttachmentOwner.ORDER, order.id);
      });
    } finally {
      await Promise.all([rm(input, { force: true }), rm(output, { force: true })]);
    }
  }

  /** The engine's handle on `source` from an earlier run, and where the engine keeps a new one (committed at once). */
  private async checkpoint(em: EntityManager, order: Order, source: StoredFile): Promise<EngineCheckpoint> {
    const engine = this.deps.engine.name;
    const earlier = await em.fork().findOne(EngineRequest, { order: order.id, source: source.id });
    return {
      resumeFrom: earlier?.engine === engine ? earlier.reference : undefined,
      accepted: async (reference) => {
        await em.fork().upsert(
          EngineRequest,
          { id: newId(), order: order.id, source: source.id, engine, reference, createdAt: new Date() },
          {
            onConflictFields: ['order', 'source'],
            onConflictAction: 'merge',
            onConflictMergeFields: ['engine', 'reference', 'createdAt'],
          },
        );
      },
    };
  }

  /** The order joins the translators' queue (D30): no hold, no e-mail; it stays processing for the client. */
  private awaitTranslator(em: EntityManager, orderId: string): Promise<void> {
    return this.inLockedOrder(em, orderId, async (_tx, order) => {
      if (order.status === OrderStatus.PROCESSING) order.awaitingTranslator = true;
    });
  }

  private hold(em: EntityManager, orderId: string, reason: string): Promise<void> {
    return this.inLockedOrder(em, orderId, async (tx, order) => {
      if (order.status === OrderStatus.PROCESSING)
        await this.deps.orders.lifecycle.hold(tx, order, { actor: null, action: 'hold', reason });
    });
  }

  private async inLockedOrder(
    em: EntityManager,
    orderId: string,
    work: (tx: EntityManager, order: Order) => Promise<void>,
  ): Promise<void> {
    await this.deps.orders.lifecycle.change(em, { id: orderId }, work);
  }
}

/**
 * `<base>.<target>.<ext>` (D11): statement.docx in English -> statement.en.docx. `extension` (with its dot) names a
 * translation in another format than its source (D30: a reviewed PDF for a DOCX source is statement.en.pdf).
 */
export function translatedName(name: string, target: string, extension?: string): string {
  const ext = extname(name);
  return `${ext ? name.slice(0, -ext.length) : name}.${target}${extension ?? ext}`;
}

/** D30: the engine cannot read a scan, a photo or a document it could not count: a person translates it. */
const needsAPerson = (source: StoredFile): boolean =>
  source.analysisStatus === AnalysisStatus.UNCOUNTABLE || (source.scannedPages ?? 0) > 0;
