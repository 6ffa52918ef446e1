import { LockMode, type EntityManager } from '@mikro-orm/core';
import { isReferenceViolation } from './reference-violation.queries';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { waitingAnalyses } from './pending-analyses.queries';
import type { Logger } from '../../shared/logger';
import type { JobQueue } from '../../jobs/job-queue';
import type { FileStorage } from '../../providers/storage/file-storage';
import type { Account } from '../identity/account.entity';
import { requireAccount } from '../identity/guards';
import { seesEveryFile } from './file-visibility';
import type { Actor, Ctx } from '../identity/context';
import { ForbiddenError, GoneError, NotFoundError, ValidationError } from '../../shared/errors';
import { isId, newId } from '../shared/ids';
import { retryingTransaction } from '../shared/transaction';
import {
  IMAGE_PAGES,
  UNKNOWN_PAGES,
  type AnalysisResult,
  type PageFacts,
} from '../../documents/analysis/analysis-result';
import { billingPages } from '../../documents/analysis/word-count';
import { detectFormat, hasTextLayer } from '../../documents/formats';
import { SandboxUnavailableError, type DocumentSandbox } from '../../documents/sandbox/document-sandbox';
import { AttachmentOwner, FileAttachment, type Owner } from './file-attachment.entity';
import { sanitizeFileName } from './file-name';
import { AnalysisStatus, FileType, StoredFile } from './file.entity';
import { describeFile, receiveUpload, type ReceivedUpload } from './receive-upload';
import type { SignedUrls } from './signed-urls';
import { sweepStorage, type SweptStorage } from './orphan-sweep';
import type { StorageIntents } from './storage-intents';

/** What the download of a file deleted under D33 answers (410), whether its bytes are gone yet or going. */
export const PURGED = "This file was deleted under the account's retention policy.";

/** What an expired download link answers (403): the file is there, the link is only old. */
const EXPIRED_LINK = 'This link has expired: request the file again for a fresh link.';

export interface FilesDeps {
  storage: FileStorage;
  queue: JobQueue;
  signedUrls: SignedUrls;
  uploadMaxBytes: number;
  documents: DocumentSandbox;
  /** The service's own temporary directory (temp-files.ts). */
  tempDir: string;
  /** Names each storage key before bytes are written under it (D25). */
  intents: StorageIntents;
  logger: Logger;
  /**
   * Whether a client may see one of its own files on its own (D18): a rule of the orders that show it, handed in by
   * the composition root (`clientMaySeeFile`, order-visibility.ts) because orders build on files.
   */
  clientMaySee(em: EntityManager, file: StoredFile): Promise<boolean>;
}

/** What a produced file is: its account, its kind, its name, and the source it translates. */
export interface ProducedFile {
  account: Account;
  type: FileType.TRANSLATION | FileType.CERTIFICATE;
  name: string;
  derivedFromId?: string;
}

/** Bytes in storage that no row claims yet (`storeBytes`). */
export interface StoredBytes {
  storageKey: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
}

export interface NewUpload {
  /** Undefined when the request carried no file part. */
  upload: ReceivedUpload | undefined;
  filename?: string;
  type?: unknown;
}

/** Source documents and produced files: upload, analysis, ownership, deletion and signed downloads (D5). */
export class FilesService {
  /** Analyses running in this process, by file id: the job, a quote and the upload's own start join one run. */
  private readonly analysing = new Map<string, Promise<AnalysisResult>>();

  constructor(private readonly deps: FilesDeps) {}

  /** Where the service's temporary files go: uploads, analysis copies, translation and certificate work (D25). */
  get tempDir(): string {
    return this.deps.tempDir;
  }

  /** Step one of an upload: the bytes to a temporary file, cut off past the size limit. */
  receive(stream: Readable): Promise<ReceivedUpload> {
    return receiveUpload(stream, this.deps.uploadMaxBytes, this.deps.tempDir);
  }

  /** Both steps, for a door that has the whole upload as one stream (GraphQL). */
  async upload(ctx: Ctx, input: { stream: Readable; filename?: string; type?: unknown }): Promise<StoredFile> {
    return this.create(ctx, { upload: await this.receive(input.stream), filename: input.filename, type: input.type });
  }

  /**
   * Step two: validates what was received, stores the bytes, then writes the row and queues its analysis in
   * one transaction. Whatever fails, the temporary file goes, and no row or stored bytes are left behind.
   */
  async create(ctx: Ctx, input: NewUpload): Promise<StoredFile> {
    const account = requireAccount(ctx.actor, 'files.upload');
    const upload = input.upload;
    let handedOff = false;
    try {
      const errors: Record<string, string[]> = {};
      if (input.type !== undefined && input.type !== '' && input.type !== FileType.SOURCE) {
        errors.type = ['Only source files can be uploaded.'];
      }
      if (!upload) errors.file = ['The file field is required.'];
      else if (upload.tooLarge)
        errors.file = [`The file must not be greater than ${describeBytes(this.deps.uploadMaxBytes)}.`];
      else if (upload.size === 0) errors.file = ['The file must not be empty.'];
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const received = upload as Extract<ReceivedUpload, { tooLarge: false }>;

      const mimeType = await detectFormat(received.path);
      if (!mimeType) throw ValidationError.of('file', 'The file must be a PDF, DOCX, JPEG or PNG document.');

      // Made before its transaction (its id names the stored bytes), persisted in it.
      const id = newId();
      const file = ctx.em.create(
        StoredFile,
        {
          id,
          storageKey: id,
          account,
          name: sanitizeFileName(input.filename),
          mimeType,
          sizeBytes: received.size,
          sha256: received.sha256,
        },
        { persist: false },
      );
      await this.store(file.storageKey, received.path, mimeType);
      try {
        await ctx.em.transactional(async (em) => {
          em.persist(file);
          await em.flush();
          await this.deps.intents.fulfil(em, file.storageKey);
          await this.queueAnalysis(em, file);
        });
        // Started at once in the account's own lane of the sandbox, so no other account's queued jobs come first,
        // on the bytes just received, which stay until it ends, so what was just stored is not fetched back; the job
        // stays as the safety net (another process, a crash, a lane already full).
        handedOff = true;
        void this.analysePending(ctx.em.fork(), file.id, received.path)
          .catch((error: unknown) =>
            this.deps.logger.info({ err: error, file_id: file.id }, 'analysis left to its job'),
          )
          .finally(() => rm(received.path, { force: true }).catch(() => undefined));
      } catch (error) {
        await this.discardBytes([file.storageKey]);
        throw error;
      }
      return file;
    } finally {
      if (upload && !upload.tooLarge && !handedOff) await rm(upload.path, { force: true });
    }
  }

  /**
   * Stores a file the service produced for an account (a translation, a certificate), in the caller's
   * transaction; its analysis is queued like an upload's. The bytes are stored first (under an intent, D25) and
   * removed again by the caller if the transaction does not commit, or by the sweep at start if the process dies.
   */
  async storeProduced(em: EntityManager, input: ProducedFile & { path: string }): Promise<StoredFile> {
    const mimeType = await detectFormat(input.path);
    if (!mimeType) throw new Error(`Produced file ${input.name} is not a PDF, DOCX, JPEG or PNG`);
    return this.claimProduced(em, await this.storeBytes(input.path, mimeType), input);
  }

  /**
   * Bytes the service produced, stored under a key of their own with no transaction open (D25: the intent is
   * committed first). No row claims them yet: `claimProduced` or `replaceContent` does, in a transaction, and
   * until then the caller removes them (`discardBytes`) if that transaction never commits, or the sweep does if
   * the process dies.
   */
  async storeBytes(path: string, mimeType: string): Promise<StoredBytes> {
    const { size, sha256 } = await describeFile(path);
    const storageKey = newId();
    await this.store(storageKey, path, mimeType);
    return { storageKey, mimeType, sizeBytes: size, sha256 };
  }

  /** The row of a produced file whose bytes `storeBytes` stored, in the caller's transaction; analysed like an upload. */
  async claimProduced(em: EntityManager, bytes: StoredBytes, input: ProducedFile): Promise<StoredFile> {
    const file = em.create(StoredFile, {
      account: input.account,
      type: input.type,
      name: sanitizeFileName(input.name),
      mimeType: bytes.mimeType,
      sizeBytes: bytes.sizeBytes,
      sha256: bytes.sha256,
      storageKey: bytes.storageKey,
      derivedFromId: input.derivedFromId ?? null,
    });
    em.persist(file);
    await em.flush();
    await this.deps.intents.fulfil(em, file.storageKey);
    await this.queueAnalysis(em, file);
    return file;
  }

  /**
   * The caller's own file; anything else, including a malformed id, is "not found" (D2), and so is a translation
   * or certificate of an order not yet completed (D18).
   */
  async get(ctx: Ctx, id: unknown): Promise<StoredFile> {
    const account = requireAccount(ctx.actor, 'files.read');
    if (!isId(id)) throw new NotFoundError();
    const file = await ctx.em.findOne(StoredFile, { id, account });
    if (!file || !(await this.deps.clientMaySee(ctx.em, file))) throw new NotFoundError();
    return file;
  }

  /** Deletes an unattached file: the row first (the database refuses if an attachment appears meanwhile), then its bytes. */
  async delete(ctx: Ctx, id: unknown): Promise<void> {
    requireAccount(ctx.actor, 'files.delete');
    const file = await this.get(ctx, id);
    try {
      await retryingTransaction(ctx.em, async (em) => {
        // Locked first, so a quote being made with this file either attaches it before (422 here) or sees it gone.
        await em.findOne(StoredFile, { id: file.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        if (await em.count(FileAttachment, { file })) throw attached();
        await em.nativeDelete(StoredFile, { id: file.id });
      });
    } catch (error) {
      if (isReferenceViolation(error)) throw attached();
      throw error;
    }
    await this.deps.storage
      .delete(file.storageKey)
      .catch((e) => this.deps.logger.warn({ err: e, file_id: file.id }, 'file bytes not deleted'));
  }

  /**
   * New bytes for a produced file (a translation stamped for delivery, D20), stored by `storeBytes`, in the caller's
   * transaction. The caller removes the returned old key once the transaction has committed.
   */
  async replaceContent(em: EntityManager, file: StoredFile, bytes: StoredBytes): Promise<{ previousKey: string }> {
    const previousKey = file.storageKey;
    Object.assign(file, { storageKey: bytes.storageKey, sizeBytes: bytes.sizeBytes, sha256: bytes.sha256 });
    await em.flush();
    await this.deps.intents.fulfil(em, bytes.storageKey);
    return { previousKey };
  }

  /**
   * Intent, then write (D25): the key is named, committed, before a byte is written under it; the caller's
   * transaction then claims it with a row (`intents.fulfil`). A write that fails leaves no bytes behind.
   */
  private async store(key: string, path: string, mimeType: string): Promise<void> {
    await this.deps.intents.declare(key);
    try {
      await this.deps.storage.putFile(key, path, mimeType);
    } catch (error) {
      await this.discardBytes([key]);
      throw error;
    }
  }

  /**
   * Removes a produced file another replaced (a notarization's scan), its attachments first, in the caller's
   * transaction; the caller discards the returned keys' bytes (`discardBytes`) once it has committed.
   */
  async removeProduced(em: EntityManager, file: StoredFile): Promise<string[]> {
    await em.nativeDelete(FileAttachment, { file });
    await em.nativeDelete(StoredFile, { id: file.id });
    return [file.storageKey, file.unstampedStorageKey].filter((key): key is string => Boolean(key));
  }

  /** Copies a file's stored bytes to a local path (to work on them). */
  downloadTo(file: StoredFile, path: string): Promise<void> {
    return this.deps.storage.download(file.storageKey, path);
  }

  /** As `downloadTo`, a certified translation as it was before its certification footer (D20, D30). */
  downloadUnstamped(file: StoredFile, path: string): Promise<void> {
    return this.deps.storage.download(file.unstampedStorageKey ?? file.storageKey, path);
  }

  /** Removes stored bytes no row points at any more; a failure is only logged (the bytes are then orphaned). */
  async discardBytes(storageKeys: string[]): Promise<void> {
    for (const key of storageKeys)
      await this.deps.storage
        .delete(key)
        .catch((e) => this.deps.logger.warn({ err: e, storage_key: key }, 'file bytes not deleted'));
  }

  /** Removes stored bytes no row will claim, left by processes that died (D25; orphan-sweep.ts). */
  sweepStorage(em: EntityManager, liveIds: () => Promise<Set<number>>): Promise<SweptStorage> {
    return sweepStorage(em, this.deps.storage, liveIds);
  }

  /**
   * Records that a quote or order uses the file (as one of its files, or as a reference file the client gave with a
   * revision request, D30); from then on it cannot be deleted. Idempotent: a file attached already stays as it was.
   */
  async attach(
    em: EntityManager,
    file: StoredFile,
    ownerType: AttachmentOwner,
    ownerId: string,
    { reference = false }: { reference?: boolean } = {},
  ): Promise<void> {
    const owner = ownerType === AttachmentOwner.QUOTE ? 'quote' : 'order';
    const ref = em.getReference<Owner>(ownerType === AttachmentOwner.QUOTE ? 'Quote' : 'Order', ownerId);
    // An entity, not data: the entity makes its id, and upsert inserts only the data it is given.
    const attachment = Object.assign(new FileAttachment(), { file, [owner]: ref, reference });
    await em.upsert(FileAttachment, attachment, {
      onConflictFields: ['file', owner],
      onConflictAction: 'ignore',
    });
  }

  /**
   * The analysis job: analyses a file still waiting for it; a deleted or already analysed one is left alone. While
   * the document sandbox cannot start (D25), the file ends uncountable with that reason instead of pending for
   * ever; a quote that needs it asks again (ensureAnalysed).
   */
  async analysePending(em: EntityManager, fileId: string, localCopy?: string): Promise<void> {
    const file = await em.findOne(StoredFile, { id: fileId });
    if (!file || !awaitsAnalysis(file)) return;
    try {
      await this.analyse(em, file, localCopy);
    } catch (error) {
      if (!(error instanceof SandboxUnavailableError)) throw error; // a busy sandbox: retried with backoff
      await this.record(em, file, { kind: 'uncountable', reason: ANALYSIS_UNAVAILABLE, ...UNKNOWN_PAGES });
    }
  }

  /**
   * Synchronous analysis of whatever still waits for it, for a quote that needs the counts now (D5). While the
   * document sandbox cannot work, this throws its 503 error (with Retry-After).
   */
  async ensureAnalysed(em: EntityManager, files: StoredFile[]): Promise<void> {
    for (const file of files) if (awaitsAnalysis(file)) await this.analyse(em, file);
  }

  /**
   * A fresh 5-minute link for translations and certificates; a client's sources never get one (D5), staff's do (D18).
   * A file whose deletion was decided gets none (D33).
   */
  downloadUrl(file: Pick<StoredFile, 'id' | 'type' | 'purgeReason'>, viewer: Actor | null = null): string | null {
    const staff = seesEveryFile(viewer);
    if (file.purgeReason) return null;
    return file.type === FileType.SOURCE && !staff
      ? null
      : this.deps.signedUrls.downloadUrl(file.id, Date.now(), staff);
  }

  /** The signed download: no key needed, the signature is the permission; only a staff link opens a source (D18). */
  async openDownload(
    em: EntityManager,
    id: string,
    query: { expires?: unknown; signature?: unknown; scope?: unknown },
  ): Promise<{ file: StoredFile; stream: Readable }> {
    const scope = isId(id) ? this.deps.signedUrls.verify(id, query.expires, query.signature, query.scope) : null;
    if (!scope) throw new ForbiddenError('Invalid signature.');
    // A genuine link that is only old is told apart, so the person knows to ask again rather than suspect the link.
    if (scope === 'expired') throw new ForbiddenError(EXPIRED_LINK);
    const file = await em.findOne(StoredFile, scope === 'staff' ? { id } : { id, type: { $ne: FileType.SOURCE } });
    if (!file) throw new NotFoundError();
    if (file.purgeReason) throw new GoneError(PURGED);
    try {
      return { file, stream: await this.deps.storage.read(file.storageKey) };
    } catch (error) {
      // Deleted between the row's read and the bytes' (D33): told as deleted, not as missing.
      if (error instanceof NotFoundError && (await em.findOne(StoredFile, { id }, { refresh: true }))?.purgeReason)
        throw new GoneError(PURGED);
      throw error;
    }
  }

  /**
   * Deletes a file's bytes, its unstamped copy's too (D30), for a deletion already recorded as decided (D33). Throws
   * when the storage fails, so that the caller records nothing and the deletion is taken up again.
   */
  async purgeBytes(file: Pick<StoredFile, 'storageKey' | 'unstampedStorageKey'>): Promise<void> {
    await this.deps.storage.delete(file.storageKey);
    if (file.unstampedStorageKey) await this.deps.storage.delete(file.unstampedStorageKey);
  }

  /**
   * Queues a file's analysis behind the account's own waiting files only: its job's priority falls with the
   * number of them, so the queue serves accounts in turn (the first waiting file of each, then the second...)
   * and one account's flood never holds up another's upload (D25). Counted up to a bound, through a partial index.
   */
  private async queueAnalysis(em: EntityManager, file: StoredFile): Promise<void> {
    const waiting = await waitingAnalyses(em, file.account.id, file.id, MAX_RANK);
    await this.deps.queue.enqueue(em, 'analyse-file', { fileId: file.id }, { priority: -waiting });
  }

  /**
   * One sandbox run per file in this process, shared by every caller that asks meanwhile; each caller records
   * the result itself, in its own transaction. A caller must never wait on another's write: completion holds the
   * file's row lock while it asks, so waiting for the analysis job's UPDATE of that row would never end.
   */
  private async analyse(em: EntityManager, file: StoredFile, localCopy?: string): Promise<void> {
    let running = this.analysing.get(file.id);
    if (!running) {
      running = (
        hasTextLayer(file.mimeType)
          ? this.analyseBytes(file, localCopy)
          : Promise.resolve<AnalysisResult>({ kind: 'uncountable', reason: 'image', ...IMAGE_PAGES })
      ).finally(() => this.analysing.delete(file.id));
      this.analysing.set(file.id, running);
    }
    await this.record(em, file, await running);
  }

  private async record(
    em: EntityManager,
    file: StoredFile,
    result: AnalysisResult | (PageFacts & { kind: 'uncountable'; reason: typeof ANALYSIS_UNAVAILABLE }),
  ): Promise<void> {
    const pages = { documentPages: result.documentPages, scannedPages: result.scannedPages };
    const fields =
      result.kind === 'counted'
        ? {
            analysisStatus: AnalysisStatus.COUNTED,
            wordCount: result.words,
            pageCount: pageCountOf(file, result.words, pages),
            analysisNote: null,
            ...pages,
          }
        : {
            analysisStatus: AnalysisStatus.UNCOUNTABLE,
            wordCount: null,
            pageCount: null,
            analysisNote: result.reason,
            ...pages,
          };
    // Guarded by the state it was read in: the job and a synchronous call racing write one result.
    await em.nativeUpdate(
      StoredFile,
      { id: file.id, analysisStatus: file.analysisStatus, analysisNote: file.analysisNote },
      { ...fields, analysedAt: new Date() },
    );
    // Read back as stored, not assigned: an entity changed in memory would be written again by the caller's next
    // flush, and quotes racing for one file (each holding it under a share lock) would deadlock on that write (D8).
    await em.refresh(file);
  }

  /** Analyses `localCopy` when the caller holds the file's bytes, a download of them otherwise; then removes it. */
  private async analyseBytes(file: StoredFile, localCopy?: string): Promise<AnalysisResult> {
    const path = localCopy ?? join(this.deps.tempDir, `ltk-analysis-${newId()}`);
    try {
      if (!localCopy) await this.deps.storage.download(file.storageKey, path);
      // Each account's documents wait in a lane of their own, so no account waits behind another's (D25).
      return await this.deps.documents.analyse(file.account.id, path, file.mimeType);
    } finally {
      await rm(path, { force: true });
    }
  }
}

/**
 * A source's billing pages (D5); a translation or a certificate, which is delivered and not billed, counts its own pages
 * as the document says them (a PDF's, Word's), billing pages only when it does not say (D30).
 */
const pageCountOf = (file: StoredFile, words: number, pages: PageFacts): number =>
  file.type !== FileType.SOURCE && pages.documentPages !== null
    ? pages.documentPages
    : billingPages(words, pages.scannedPages ?? 0);

/** Past this many waiting files an account's next ones queue at the same (lowest) turn. */
const MAX_RANK = 1000;

/** The note of a file whose analysis could not run because the document sandbox could not start. */
const ANALYSIS_UNAVAILABLE = 'analysis_unavailable';

/** Pending, or left uncountable by a sandbox outage: analysed when asked. */
const awaitsAnalysis = (file: StoredFile): boolean =>
  file.analysisStatus === AnalysisStatus.PENDING ||
  (file.analysisStatus === AnalysisStatus.UNCOUNTABLE && file.analysisNote === ANALYSIS_UNAVAILABLE);

const attached = () => ValidationError.of('file', 'The file is attached to a quote or order and cannot be deleted.');

function describeBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes} bytes`;
}
