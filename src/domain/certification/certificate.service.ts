import type { EntityManager } from '@mikro-orm/core';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DocumentRefusedError, type DocumentSandbox } from '../../documents/sandbox/document-sandbox';
import type { PdfSigner } from '../../providers/signing/pdf-signer';
import type { Account } from '../accounts/account.entity';
import { AttachmentOwner } from '../files/file-attachment.entity';
import { FileType, type StoredFile } from '../files/file.entity';
import type { FilesService } from '../files/files.service';
import type { Ctx } from '../shared/context';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { newId } from '../shared/ids';
import type { StaffUser } from '../staff/staff-user.entity';
import { certificatePdf, type CertifiedDocumentLine } from '../../documents/certificate-pdf';
import { certificateFacts } from './certificate-facts';
import { IssuedCertificate } from './issued-certificate.entity';
import type { Notarization } from './notarization.entity';
import type { Order } from '../orders/order.entity';
import { normalizeCode, verificationCode } from './verification-code';

export interface CertificateDeps {
  files: FilesService;
  documents: DocumentSandbox;
  signer: PdfSigner;
  company: { name: string; address: string };
  appUrl: string;
}

export interface Issue {
  order: Order;
  account: Account;
  /** Each source with its reviewed translation. */
  documents: { source: StoredFile; translation: StoredFile }[];
  signer: StaffUser;
  notarization: Notarization | null;
  /** A certificate PDF uploaded by staff instead of the generated one. */
  uploadedPath?: string;
}

/** Storage keys to drop once the transaction has ended: the drafts' bytes if it committed, the new bytes if not. */
export interface IssuedBytes {
  replaced: string[];
  written: string[];
}

/**
 * Issues certificates of accuracy (D20) and answers their public verification. Issuing stamps every translation
 * with the certification footer, so the SHA-256 on the certificate is that of the file the client downloads.
 */
export class CertificateService {
  constructor(private readonly deps: CertificateDeps) {}

  verificationUrl(code: string): string {
    return `${this.deps.appUrl}/verify/${code}`;
  }

  /** In the caller's transaction, with the order locked: footers, the certificate file, and its record. */
  async issue(em: EntityManager, input: Issue, bytes: IssuedBytes): Promise<IssuedCertificate> {
    const { order, account } = input;
    const code = verificationCode();
    const documents: CertifiedDocumentLine[] = [];
    for (const { source, translation } of input.documents) {
      const pages = await this.stamp(em, translation, { orderNumber: order.number, code }, bytes);
      documents.push({ source: source.name, translation: translation.name, pages, sha256: translation.sha256 });
    }
    const date = new Date();
    const generated = join(this.deps.files.tempDir, `ltk-certificate-${newId()}.pdf`);
    try {
      if (!input.uploadedPath) {
        const verification = { code, url: this.verificationUrl(code) };
        const facts = certificateFacts({ company: this.deps.company, order, account, documents, signer: input.signer, notarization: input.notarization, date, verification });
        const pdf = await certificatePdf(facts, this.deps.signer);
        await writeFile(generated, pdf);
      }
      const file = await this.deps.files.storeProduced(em, { account, type: FileType.CERTIFICATE, name: `${order.number}-certificate.pdf`, path: input.uploadedPath ?? generated });
      bytes.written.push(file.storageKey);
      await this.deps.files.attach(em, file, AttachmentOwner.ORDER, order.id);
      const certificate = Object.assign(new IssuedCertificate(), {
        code,
        order,
        file,
        orderNumber: order.number,
        accountName: account.name,
        sourceLanguage: order.sourceLanguage,
        targetLanguage: order.targetLanguage,
        translator: { name: input.signer.name, credentials: input.signer.credentials },
        notarized: Boolean(input.notarization),
        documents: documents.map((document) => ({ name: document.translation, sourceName: document.source, sha256: document.sha256, pageCount: document.pages })),
        issuedAt: date,
      });
      em.persist(certificate);
      await em.flush();
      return certificate;
    } finally {
      await rm(generated, { force: true });
    }
  }

  /** Public (D20): what a certificate states, by its code; 404 for anything else. */
  async verify(ctx: Ctx, code: unknown): Promise<IssuedCertificate> {
    const normalized = normalizeCode(code);
    const certificate = normalized && (await ctx.em.findOne(IssuedCertificate, { code: normalized }));
    if (!certificate) throw new NotFoundError();
    return certificate;
  }

  /** The delivered copy: the footer on every page; the page count is the PDF's, or Word's count, or the billing pages (D5). */
  private async stamp(em: EntityManager, translation: StoredFile, facts: { orderNumber: string; code: string }, bytes: IssuedBytes): Promise<number> {
    const draft = join(this.deps.files.tempDir, `ltk-draft-${newId()}`);
    const stamped = join(this.deps.files.tempDir, `ltk-stamped-${newId()}`);
    try {
      await this.deps.files.downloadTo(translation, draft);
      const { pages } = await this.stampCopy(translation, draft, stamped, facts);
      const { previousKey } = await this.deps.files.replaceContent(em, translation, stamped);
      bytes.replaced.push(previousKey);
      bytes.written.push(translation.storageKey);
      if (pages) return pages;
      await this.deps.files.ensureAnalysed(em, [translation]);
      return translation.pageCount ?? 1;
    } finally {
      await Promise.all([rm(draft, { force: true }), rm(stamped, { force: true })]);
    }
  }

  /** The footer is written by the document sandbox: the translation is a file someone uploaded (D25). */
  private async stampCopy(translation: StoredFile, input: string, output: string, facts: { orderNumber: string; code: string }): Promise<{ pages: number | null }> {
    try {
      return await this.deps.documents.stamp(translation.account.id, { mimeType: translation.mimeType, input, output, facts });
    } catch (error) {
      if (!(error instanceof DocumentRefusedError)) throw error;
      throw ValidationError.of('translation', `The translation ${translation.name} cannot be certified: ${error.message} Replace it with a readable file.`);
    }
  }
}
