import type { EntityManager } from '@mikro-orm/core';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { certificatePdf, type CertifiedDocumentLine } from '../../documents/certificate-pdf';
import { PDF } from '../../documents/formats';
import { DocumentRefusedError, type DocumentSandbox } from '../../documents/sandbox/document-sandbox';
import type { PdfSigner } from '../../providers/signing/pdf-signer';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { Account } from '../identity/account.entity';
import { AttachmentOwner } from '../files/file-attachment.entity';
import { FileType, StoredFile } from '../files/file.entity';
import type { FilesService, StoredBytes } from '../files/files.service';
import type { Order } from '../orders/order.entity';
import type { Ctx } from '../identity/context';
import { newId } from '../shared/ids';
import type { StaffUser } from '../identity/staff-user.entity';
import { certificateFacts } from './certificate-facts';
import { IssuedCertificate } from './issued-certificate.entity';
import type { Notarization } from './notarization.entity';
import { normalizeCode } from './verification-code';

export interface CertificateDeps {
  files: FilesService;
  documents: DocumentSandbox;
  signer: PdfSigner;
  company: { name: string; address: string };
  appUrl: string;
}

/** What a completion certifies, as read with the order locked when its intent was recorded. */
export interface Certification {
  /** The verification code its intent reserved. */
  code: string;
  order: Order;
  account: Account;
  /** Each source with its reviewed translation. */
  documents: { source: StoredFile; translation: StoredFile }[];
  signer: StaffUser;
  notarization: Notarization | null;
  /** A certificate PDF uploaded by staff instead of the generated one. */
  uploadedPath?: string;
}

/** The slow work done: bytes in storage that no row claims yet, each under a storage intent (D25). */
export interface PreparedCertificate {
  date: Date;
  documents: CertifiedDocumentLine[];
  /** The delivered copy of each translation, with the footer. */
  stamped: { fileId: string; bytes: StoredBytes }[];
  certificate: StoredBytes;
}

/**
 * Issues certificates of accuracy (D20) and answers their public verification. Issuing stamps every translation
 * with the certification footer, so the SHA-256 on the certificate is that of the file the client downloads. The
 * stamping, drawing, signing and storing (`prepare`) run with no lock and no transaction; `issue` then applies
 * them in the transaction that completes the order.
 */
export class CertificateService {
  constructor(private readonly deps: CertificateDeps) {}

  verificationUrl(code: string): string {
    return `${this.deps.appUrl}/verify/${code}`;
  }

  /**
   * With no lock and no transaction held: every translation stamped in the document sandbox, the certificate drawn
   * and signed (or the uploaded one taken), all stored. Whatever fails, nothing it stored stays.
   */
  async prepare(em: EntityManager, certification: Certification): Promise<PreparedCertificate> {
    const { code, order } = certification;
    const written: string[] = [];
    try {
      const stamped: PreparedCertificate['stamped'] = [];
      const documents: CertifiedDocumentLine[] = [];
      for (const { source, translation } of certification.documents) {
        const { bytes, pages } = await this.stamp(em, translation, { orderNumber: order.number, code });
        written.push(bytes.storageKey);
        stamped.push({ fileId: translation.id, bytes });
        documents.push({ source: source.name, translation: translation.name, pages, sha256: bytes.sha256 });
      }
      const date = new Date();
      const certificate = await this.certificateBytes(certification, documents, date);
      written.push(certificate.storageKey);
      return { date, documents, stamped, certificate };
    } catch (error) {
      await this.deps.files.discardBytes(written);
      throw error;
    }
  }

  /**
   * In the transaction that completes the order, locked and checked again: the stamped copies replace the
   * `translations` they were made from, the certificate becomes the order's file, and what it stated is recorded.
   * Answers the storage keys no file needs any more (a stamped copy stamped again), to remove once the transaction
   * has committed; a translation's reviewed bytes are kept as `unstampedStorageKey`.
   */
  async issue(
    em: EntityManager,
    order: Order,
    translations: StoredFile[],
    certification: Certification,
    prepared: PreparedCertificate,
  ): Promise<string[]> {
    const previousKeys: string[] = [];
    for (const { fileId, bytes } of prepared.stamped) {
      const translation = translations.find((file) => file.id === fileId)!;
      // The reviewed bytes are kept, unstamped, for a revision to draft from (D30); a stamped one is replaced.
      const firstStamp = translation.unstampedStorageKey === null;
      if (firstStamp) translation.unstampedStorageKey = translation.storageKey;
      const { previousKey } = await this.deps.files.replaceContent(em, translation, bytes);
      if (!firstStamp) previousKeys.push(previousKey);
    }
    // What the certificate stated is what step one read: the account's name and the signer's credentials as printed.
    const { account, signer } = certification;
    const file = await this.deps.files.claimProduced(em, prepared.certificate, {
      account: em.getReference(Account, account.id),
      type: FileType.CERTIFICATE,
      name: `${order.number}-certificate.pdf`,
    });
    await this.deps.files.attach(em, file, AttachmentOwner.ORDER, order.id);
    em.create(IssuedCertificate, {
      code: certification.code,
      order,
      file,
      orderNumber: order.number,
      accountName: account.name,
      sourceLanguage: order.sourceLanguage,
      targetLanguage: order.targetLanguage,
      translator: { name: signer.name, credentials: signer.credentials },
      notarized: Boolean(certification.notarization),
      documents: prepared.documents.map((document) => ({
        name: document.translation,
        sourceName: document.source,
        sha256: document.sha256,
        pageCount: document.pages,
      })),
      issuedAt: prepared.date,
    });
    await em.flush();
    // A revision's certificate supersedes the one of the order it revises (D30): its verification names the new code.
    if (order.revisionOf)
      await em.nativeUpdate(IssuedCertificate, { order: order.revisionOf.id }, { supersededBy: certification.code });
    return previousKeys;
  }

  /** Removes what `prepare` stored, for a completion that did not go through. */
  discard(prepared: PreparedCertificate): Promise<void> {
    return this.deps.files.discardBytes([
      ...prepared.stamped.map(({ bytes }) => bytes.storageKey),
      prepared.certificate.storageKey,
    ]);
  }

  /** Public (D20): what a certificate states, by its code; 404 for anything else. */
  async verify(ctx: Ctx, code: unknown): Promise<IssuedCertificate> {
    const normalized = normalizeCode(code);
    // With its order, which says when the documents it certifies were deleted (D33); the certificate itself stays.
    const certificate =
      normalized && (await ctx.em.findOne(IssuedCertificate, { code: normalized }, { populate: ['order'] }));
    if (!certificate) throw new NotFoundError();
    return certificate;
  }

  /** The certificate's bytes, stored: the one staff uploaded, or one generated and signed now. */
  private async certificateBytes(
    certification: Certification,
    documents: CertifiedDocumentLine[],
    date: Date,
  ): Promise<StoredBytes> {
    if (certification.uploadedPath) return this.deps.files.storeBytes(certification.uploadedPath, PDF);
    const { code } = certification;
    const generated = join(this.deps.files.tempDir, `ltk-certificate-${newId()}.pdf`);
    try {
      const verification = { code, url: this.verificationUrl(code) };
      const { order, account, signer, notarization } = certification;
      const facts = certificateFacts({
        company: this.deps.company,
        order,
        account,
        documents,
        signer,
        notarization,
        date,
        verification,
      });
      await writeFile(generated, await certificatePdf(facts, this.deps.signer));
      return await this.deps.files.storeBytes(generated, PDF);
    } finally {
      await rm(generated, { force: true });
    }
  }

  /**
   * The delivered copy, stored: the footer on every page; the page count is the PDF's, or Word's count, or the
   * billing pages (D5), analysed now if the translation still waits for it.
   */
  private async stamp(
    em: EntityManager,
    translation: StoredFile,
    facts: { orderNumber: string; code: string },
  ): Promise<{ bytes: StoredBytes; pages: number }> {
    const draft = join(this.deps.files.tempDir, `ltk-draft-${newId()}`);
    const stamped = join(this.deps.files.tempDir, `ltk-stamped-${newId()}`);
    try {
      await this.deps.files.downloadTo(translation, draft);
      const { pages } = await this.stampCopy(translation, draft, stamped, facts);
      const count = pages ?? (await this.analysedPages(em, translation));
      return { bytes: await this.deps.files.storeBytes(stamped, translation.mimeType), pages: count };
    } finally {
      await Promise.all([rm(draft, { force: true }), rm(stamped, { force: true })]);
    }
  }

  private async analysedPages(em: EntityManager, translation: StoredFile): Promise<number> {
    const fork = em.fork();
    const file = await fork.findOneOrFail(StoredFile, { id: translation.id });
    await this.deps.files.ensureAnalysed(fork, [file]);
    return file.pageCount ?? 1;
  }

  /** The footer is written by the document sandbox: the translation is a file someone uploaded (D25). */
  private async stampCopy(
    translation: StoredFile,
    input: string,
    output: string,
    facts: { orderNumber: string; code: string },
  ): Promise<{ pages: number | null }> {
    try {
      return await this.deps.documents.stamp(translation.account.id, {
        mimeType: translation.mimeType,
        input,
        output,
        facts,
      });
    } catch (error) {
      if (!(error instanceof DocumentRefusedError)) throw error;
      throw ValidationError.of(
        'translation',
        `The translation ${translation.name} cannot be certified: ${error.message} Replace it with a readable file.`,
      );
    }
  }
}
