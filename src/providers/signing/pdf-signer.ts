import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import signpdf from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import type { PDFDocument } from 'pdf-lib';

/**
 * Signs PDFs (certificates of accuracy, D10) with a PKCS#12 key: a PAdES signature (ETSI.CAdES.detached) over
 * the whole document, which PDF readers show as signed and verify.
 */
export class PdfSigner {
  constructor(
    private readonly p12: Buffer,
    private readonly passphrase: string,
  ) {}

  /** Reserves the signature field; call before saving the document. */
  prepare(doc: PDFDocument, signer: string): void {
    pdflibAddPlaceholder({
      pdfDoc: doc,
      reason: 'Certificate of accuracy',
      contactInfo: signer,
      name: signer,
      location: 'Online',
      subFilter: 'ETSI.CAdES.detached',
      signatureLength: 16_384,
    });
  }

  /** Signs a document saved after `prepare` (saved without object streams). */
  sign(bytes: Uint8Array): Promise<Buffer> {
    return signpdf.sign(Buffer.from(bytes), new P12Signer(this.p12, { passphrase: this.passphrase }));
  }
}
