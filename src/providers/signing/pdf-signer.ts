import type { PDFDocument } from 'pdf-lib';
import type { P12IdentitySigner } from './p12-identity-signer';

/**
 * Signs PDFs (certificates of accuracy, D10) with a PKCS#12 key: a PAdES signature (ETSI.CAdES.detached) over
 * the whole document, which PDF readers show as signed and verify. The signing libraries (node-forge under them)
 * are loaded by the first certificate: most processes never sign one.
 */
export class PdfSigner {
  private identity?: P12IdentitySigner;

  constructor(
    private readonly p12: Buffer,
    private readonly passphrase: string,
  ) {}

  /** Reserves the signature field; call before saving the document. */
  prepare(doc: PDFDocument, signer: string): void {
    const { pdflibAddPlaceholder } =
      require('@signpdf/placeholder-pdf-lib') as typeof import('@signpdf/placeholder-pdf-lib');
    pdflibAddPlaceholder({
      pdfDoc: doc,
      reason: 'Certificate of accuracy',
      contactInfo: pdfTextString(signer),
      name: pdfTextString(signer),
      location: 'Online',
      subFilter: 'ETSI.CAdES.detached',
      signatureLength: 16_384,
    });
  }

  /** Signs a document saved after `prepare` (saved without object streams). */
  sign(bytes: Uint8Array): Promise<Buffer> {
    const { default: signpdf } = require('@signpdf/signpdf') as typeof import('@signpdf/signpdf');
    return signpdf.sign(Buffer.from(bytes), this.open());
  }

  /** Reads the PKCS#12 identity (once); throws when the file or its passphrase is wrong. */
  open(): P12IdentitySigner {
    const { P12IdentitySigner } = require('./p12-identity-signer') as typeof import('./p12-identity-signer');
    return (this.identity ??= new P12IdentitySigner(this.p12, this.passphrase));
  }
}

/**
 * The placeholder writes its strings byte for byte between parentheses, so a name outside Latin-1 (a translator
 * called 王芳) or with an unbalanced parenthesis would be garbled or break the file: give it the PDF text-string
 * form instead, UTF-16BE behind a byte-order mark, with the literal-string delimiters escaped.
 */
function pdfTextString(text: string): string {
  const utf16be = Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
  return [...utf16be.toString('latin1')]
    .map((char) => (char === '(' || char === ')' || char === '\\' ? `\\${char}` : char === '\r' ? '\\r' : char))
    .join('');
}
