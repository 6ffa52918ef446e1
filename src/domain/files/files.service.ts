import { ForeignKeyConstraintViolationException, LockMode, type EntityManager } from '@mikro-orm/core';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from '../../shared/logger';
import type { JobQueue } from '../../jobs/job-queue';
import type { FileStorage } from '../../providers/storage/file-storage';
import type { Account } from '../accounts/account.entity';
import { requireAccount } from '../accounts/authentication.service';
import { clientMaySeeFile, seesEveryFile } from '../orders/order-visibility';
import type { Actor, Ctx } from '../shared/context';
import { ForbiddenError, NotFoundError, ValidationError } from '../../shared/errors';
import { isId, newId } from '../shared/ids';
import { retryingTransaction } from '../shared/transaction';
import type { AnalysisResult } from './analysis/analysis-result';
import { detectFormat, hasTextLayer } from '../../documents/formats';
import { AnalysisSandbox, type AnalysisBounds } from './analysis/analysis-sandbox';
import { billingPages } from './analysis/word-count';
import { AttachmentOwner, FileAttachment } from './file-attachment.entity';
import { sanitizeFileName } from './file-name';
import { AnalysisStatus, FileType, StoredFile } from './file.entity';
import { describeFile, receiveUpload, type ReceivedUpload } from './receive-upload';
import type { SignedUrls } from './signed-urls';

export interface FilesDeps {
  storage: FileStorage;
  queue: JobQueue;
  signedUrls: SignedUrls;
  uploadMaxBytes: number;
  analysisBounds: AnalysisBounds;
  /** The service's own temporary directory (temp-files.ts). */
  tempDir: string;
  logger: Logger;
}

export interface NewUpload {
  /** Undefined when the request carried no file part. */
  upload: ReceivedUpload | undefined;
  filename?: string;
  type?: unknown;
}

/** Source documents and produced files: upload, analysis, ownership, deletion and signed downloads (D5). */
export class FilesService {
  private readonly sandbox: AnalysisSandbox;

  constructor(private readonly deps: FilesDeps) {
    this.sandbox = new AnalysisSandbox(deps.analysisBounds);
  }

  /** Where the service's temporary files go: uploads, analysis copies, translation and certificate work (D25). */
  get tempDir(): string {
    return this.deps.tempDir;
  }

  /** The analysis child process, while one runs (tests sample its memory). */
  get analysisPid(): number | undefined {
    return this.sandbox.pid;
  }

  /** Starts the analysis child process ahead of the first document (a process that runs the analysis jobs). */
  warmAnalysis(): void {
    this.sandbox.warm();
  }

  /** Stops the analysis child process (shutdown). */
  close(): void {
    this.sandbox.close();
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
    const account = requireAccount(ctx.actor);
    const upload = input.upload;
    try {
      const errors: Record<string, string[]> = {};
      if (input.type !== undefined && input.type !== '' && input.type !== FileType.SOURCE) {
        errors.type = ['Only source files can be uploaded.'];
      }
      if (!upload) errors.file = ['The file field is required.'];
      else if (upload.tooLarge) errors.file = [`The file must not be greater than ${describeBytes(this.deps.uploadMaxBytes)}.`];
      else if (upload.size === 0) errors.file = ['The file must not be empty.'];
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const received = upload as Extract<ReceivedUpload, { tooLarge: false }>;

      const mimeType = await detectFormat(received.path);
      if (!mimeType) throw ValidationError.of('file', 'The file must be a PDF, DOCX, JPEG or PNG document.');

      const file = Object.assign(new StoredFile(), {
        account,
        name: sanitizeFileName(input.filename),
        mimeType,
        sizeBytes: received.size,
        sha256: received.sha256,
      });
      file.storageKey = file.id;
      await this.deps.storage.putFile(file.storageKey, received.path, mimeType);
      try {
        await ctx.em.transactional(async (em) => {
          em.persist(file);
          await em.flush();
          await this.deps.queue.enqueue(em, 'analyse-file', { fileId: file.id });
        });
        this.deps.queue.wake('analyse-file'); // counted within a second of the upload, not at the next poll
      } catch (error) {
        await this.deps.storage.delete(file.storageKey).catch((e) => this.deps.logger.warn({ err: e }, 'orphaned upload bytes'));
        throw error;
      }
      return file;
    } finally {
      if (upload && !upload.tooLarge) await rm(upload.path, { force: true });
    }
  }

  /**
   * Stores a file the service produced for an account (a translation, a certificate), in the caller's
   * transaction; its analysis is queued like an upload's. The bytes are stored first and removed again if the
   * transaction does not commit.
   */
  async storeProduced(
    em: EntityManager,
    input: { account: Account; type: FileType.TRANSLATION | FileType.CERTIFICATE; name: string; path: string; derivedFromId?: string },
  ): Promise<StoredFile> {
    const mimeType = await detectFormat(input.path);
    if (!mimeType) throw new Error(`Produced file ${input.name} is not a PDF, DOCX, JPEG or PNG`);
    const { size, sha256 } = await describeFile(input.path);
    const file = Object.assign(new StoredFile(), {
      account: input.account,
      type: input.type,
      name: sanitizeFileName(input.name),
      mimeType,
      sizeBytes: size,
      sha256,
      derivedFromId: input.derivedFromId ?? null,
    });
    file.storageKey = file.id;
    await this.deps.storage.putFile(file.storageKey, input.path, mimeType);
    em.persist(file);
    await em.flush();
    await this.deps.queue.enqueue(em, 'analyse-file', { fileId: file.id });
    return file;
  }

  /**
   * The caller's own file; anything else, including a malformed id, is "not found" (D2), and so is a translation
   * or certificate of an order not yet completed (D18).
   */
  async get(ctx: Ctx, id: unknown): Promise<StoredFile> {
    const account = requireAccount(ctx.actor);
    if (!isId(id)) throw new NotFoundError();
    const file = await ctx.em.findOne(StoredFile, { id, account });
    if (!file || !(await clientMaySeeFile(ctx.em, file))) throw new NotFoundError();
    return file;
  }

  /** Deletes an unattached file: the row first (the database refuses if an attachment appears meanwhile), then its bytes. */
  async delete(ctx: Ctx, id: unknown): Promise<void> {
    const file = await this.get(ctx, id);
    try {
      await retryingTransaction(ctx.em, async (em) => {
        // Locked first, so a quote being made with this file either attaches it before (422 here) or sees it gone.
        await em.findOne(StoredFile, { id: file.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        if (await em.count(FileAttachment, { file })) throw attached();
        await em.nativeDelete(StoredFile, { id: file.id });
      });
    } catch (error) {
      if (error instanceof ForeignKeyConstraintViolationException) throw attached();
      throw error;
    }
    await this.deps.storage.delete(file.storageKey).catch((e) => this.deps.logger.warn({ err: e, file_id: file.id }, 'file bytes not deleted'));
  }

  /**
   * New bytes for a produced file (a translation stamped for delivery, D20), in the caller's transaction. The new
   * bytes get a key of their own; the caller removes the returned old key once the transaction has committed.
   */
  async replaceContent(em: EntityManager, file: StoredFile, path: string): Promise<{ previousKey: string }> {
    const { size, sha256 } = await describeFile(path);
    const previousKey = file.storageKey;
    const storageKey = newId();
    await this.deps.storage.putFile(storageKey, path, file.mimeType);
    Object.assign(file, { storageKey, sizeBytes: size, sha256 });
    await em.flush();
    return { previousKey };
  }

  /** Copies a file's stored bytes to a local path (to work on them). */
  downloadTo(file: StoredFile, path: string): Promise<void> {
    return this.deps.storage.download(file.storageKey, path);
  }

  /** Removes stored bytes no row points at any more; a failure is only logged (the bytes are then orphaned). */
  async discardBytes(storageKeys: string[]): Promise<void> {
    for (const key of storageKeys) await this.deps.storage.delete(key).catch((e) => this.deps.logger.warn({ err: e, storage_key: key }, 'file bytes not deleted'));
  }

  /** Records that a quote or order uses the file; from then on it cannot be deleted. Idempotent. */
  async attach(em: EntityManager, file: StoredFile, ownerType: AttachmentOwner, ownerId: string): Promise<void> {
    const attachment = Object.assign(new FileAttachment(), { file, ownerType, ownerId });
    await em.upsert(FileAttachment, attachment, { onConflictFields: ['file', 'ownerType', 'ownerId'], onConflictAction: 'ignore' });
  }

  /** The analysis job: analyses a file still pending; a deleted or already analysed one is left alone. */
  async analysePending(em: EntityManager, fileId: string): Promise<void> {
    const file = await em.findOne(StoredFile, { id: fileId });
    if (file?.analysisStatus === AnalysisStatus.PENDING) await this.analyse(em, file);
  }

  /** Synchronous analysis of whatever is still pending, for a quote that needs the counts now (D5). */
  async ensureAnalysed(em: EntityManager, files: StoredFile[]): Promise<void> {
    for (const file of files) if (file.analysisStatus === AnalysisStatus.PENDING) await this.analyse(em, file);
  }

  /** A fresh 5-minute link for translations and certificates; a client's sources never get one (D5), staff's do (D18). */
  downloadUrl(file: Pick<StoredFile, 'id' | 'type'>, viewer: Actor | null = null): string | null {
    const staff = seesEveryFile(viewer);
    return file.type === FileType.SOURCE && !staff ? null : this.deps.signedUrls.downloadUrl(file.id, Date.now(), staff);
  }

  /** The signed download: no key needed, the signature is the permission; only a staff link opens a source (D18). */
  async openDownload(em: EntityManager, id: string, query: { expires?: unknown; signature?: unknown; scope?: unknown }): Promise<{ file: StoredFile; stream: Readable }> {
    const scope = isId(id) ? this.deps.signedUrls.verify(id, query.expires, query.signature, query.scope) : null;
    if (!scope) throw new ForbiddenError('Invalid signature.');
    const file = await em.findOne(StoredFile, scope === 'staff' ? { id } : { id, type: { $ne: FileType.SOURCE } });
    if (!file) throw new NotFoundError();
    return { file, stream: await this.deps.storage.read(file.storageKey) };
  }

  private async analyse(em: EntityManager, file: StoredFile): Promise<void> {
    const result: AnalysisResult = hasTextLayer(file.mimeType) ? await this.analyseBytes(file) : { kind: 'uncountable', reason: 'image' };
    const fields =
      result.kind === 'counted'
        ? { analysisStatus: AnalysisStatus.COUNTED, wordCount: result.words, pageCount: billingPages(result.words), analysisNote: null }
        : { analysisStatus: AnalysisStatus.UNCOUNTABLE, wordCount: null, pageCount: null, analysisNote: result.reason };
    // Guarded by the status: the job and a synchronous call racing write the same result once.
    await em.nativeUpdate(StoredFile, { id: file.id, analysisStatus: AnalysisStatus.PENDING }, { ...fields, analysedAt: new Date() });
    Object.assign(file, fields);
  }

  private async analyseBytes(file: StoredFile): Promise<AnalysisResult> {
    const path = join(this.deps.tempDir, `ltk-analysis-${newId()}`);
    try {
      await this.deps.storage.download(file.storageKey, path);
      return await this.sandbox.analyse(path, file.mimeType);
    } finally {
      await rm(path, { force: true });
    }
  }
}

const attached = () => ValidationError.of('file', 'The file is attached to a quote or order and cannot be deleted.');

function describeBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes} bytes`;
}
