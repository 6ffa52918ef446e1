import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { certificatePdf, type CertificateContent } from '../../src/domain/orders/certificate';
import { createPdfSigner } from '../../src/providers/signing/create-pdf-signer';
import { verifyPdfSignature } from '../helpers/pdf-signature';

const signer = createPdfSigner({ p12Path: join(mkdtempSync(join(tmpdir(), 'ltk-cert-')), 'sandbox.p12'), passphrase: '', selfSigned: true });

const content = (overrides: Partial<CertificateContent>): CertificateContent => ({
  orderNumber: 'LT-2026-000042',
  sourceLanguage: 'zh',
  targetLanguage: 'en',
  documents: [{ source: '出生证明.pdf', translation: '出生证明.en.pdf' }],
  signer: 'Sam Staff',
  date: new Date('2026-11-22T10:00:00Z'),
  notarized: false,
  ...overrides,
});

async function read(bytes: Buffer) {
  const { extractText, getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  return { pages: pdf.numPages, text: (await extractText(pdf, { mergePages: true })).text };
}

/** The /Name of the signature dictionary, decoded as a PDF reader shows it in its signature panel. */
async function signatureName(bytes: Buffer): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const signature = doc.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .find((object): object is PDFDict => object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('Sig'));
  return signature!.lookup(PDFName.of('Name'), PDFString, PDFHexString).decodeText();
}

describe('the certificate of accuracy', () => {
  it('shows document and signer names in any script, and stays signed', async () => {
    const bytes = Buffer.from(await certificatePdf(content({ signer: '王芳 (Wang Fang)' }), signer));
    const { text } = await read(bytes);
    for (const expected of ['Chinese into English', '- 出生证明.pdf -> 出生证明.en.pdf', 'Signed: 王芳 (Wang Fang)']) expect(text).toContain(expected);
    expect(verifyPdfSignature(bytes)).toMatchObject({ subFilter: 'ETSI.CAdES.detached', coversWholeFile: true });
    expect(await signatureName(bytes)).toBe('王芳 (Wang Fang)');
  });

  it('keeps a signer name with an unbalanced parenthesis or a backslash intact', async () => {
    const bytes = Buffer.from(await certificatePdf(content({ signer: 'Ann) O\\Neil (' }), signer));
    expect(await signatureName(bytes)).toBe('Ann) O\\Neil (');
    expect(verifyPdfSignature(bytes).coversWholeFile).toBe(true);
  });

  it('runs a long document list over onto further pages instead of off the page', async () => {
    const documents = Array.from({ length: 20 }, (_, i) => ({ source: `${'very long scanned exhibit name '.repeat(3)}${i}.pdf`, translation: `exhibit-${i}.en.pdf` }));
    const bytes = Buffer.from(await certificatePdf(content({ documents, notarized: true }), signer));
    const { pages, text } = await read(bytes);
    expect(pages).toBeGreaterThan(1);
    for (let i = 0; i < 20; i++) expect(text).toContain(`exhibit-${i}.en.pdf`);
    for (const expected of ['Notarization was ordered', 'Signed: Sam Staff', 'Date: 2026-11-22']) expect(text).toContain(expected);
    expect(verifyPdfSignature(bytes).coversWholeFile).toBe(true);
  });
});
