import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { certificatePdf, type CertificateContent } from '../../src/documents/certificate-pdf';
import { createPdfSigner } from '../../src/providers/signing/create-pdf-signer';
import { PdfSigner } from '../../src/providers/signing/pdf-signer';
import { verifyPdfSignature } from '../helpers/pdf-signature';

const signer = createPdfSigner({
  p12Path: join(mkdtempSync(join(tmpdir(), 'ltk-cert-')), 'sandbox.p12'),
  passphrase: '',
  selfSigned: true,
});

const content = (overrides: Partial<CertificateContent>): CertificateContent => ({
  company: { name: 'Acme Legal Translations LLC', address: '100 Court Street; Brooklyn, NY 11201' },
  clientName: 'Smith & Partners LLP',
  orderNumber: 'LT-2611-AB12CD',
  languages: { from: 'Chinese', to: 'English' },
  documents: [{ source: '出生证明.pdf', translation: '出生证明.en.pdf', pages: 2, sha256: 'ab'.repeat(32) }],
  billed: '3 billing pages (250 words each) for 2 document pages, 1 of them scanned (one billing page each)',
  translator: { name: 'Sam Staff', credentials: 'ATA-certified translator no. 123456' },
  date: new Date('2026-11-22T10:00:00Z'),
  notarization: null,
  verification: { code: 'K7QM-3XPA-9RTD-2WBN', url: 'https://verify.example.test/verify/K7QM-3XPA-9RTD-2WBN' },
  ...overrides,
});

/** The text as one line: wrapped lines join with a space, as a reader reads them. */
async function read(bytes: Buffer) {
  const { extractText, getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  return { pages: pdf.numPages, text: (await extractText(pdf, { mergePages: true })).text.replace(/\s+/g, ' ') };
}

/** The /Name of the signature dictionary, decoded as a PDF reader shows it in its signature panel. */
async function signatureName(bytes: Buffer): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const signature = doc.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .find(
      (object): object is PDFDict => object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('Sig'),
    );
  return signature!.lookup(PDFName.of('Name'), PDFString, PDFHexString).decodeText();
}

const notarization = {
  notaryName: 'Nora Notary',
  commissionNumber: '01NO6123456',
  jurisdiction: 'State of New York, County of Kings',
  commissionExpiresOn: '2028-06-30',
  notarizedAt: new Date('2026-11-21T15:00:00Z'),
};

describe('the certificate of accuracy (D20)', () => {
  it('carries the letterhead, particulars, statement, document table, signature block and verification', async () => {
    const { pages, text } = await read(Buffer.from(await certificatePdf(content({}), signer)));
    expect(pages).toBe(1);
    for (const expected of [
      'Acme Legal Translations LLC',
      '100 Court Street',
      'Brooklyn, NY 11201',
      'CERTIFICATE OF TRANSLATION ACCURACY',
      'Smith & Partners LLP',
      'LT-2611-AB12CD',
      'Chinese into English',
      'Pages: 3 billing pages (250 words each) for 2 document pages, 1 of them scanned (one billing page each)',
      'I, Sam Staff, ATA-certified translator no. 123456, hereby certify that I am competent to translate from Chinese into English',
      'complete and accurate translation',
      '22 November 2026',
      'https://verify.example.test/verify/K7QM-3XPA-9RTD-2WBN',
      'Certificate of accuracy · Order LT-2611-AB12CD · Page 1 of 1 · Verification K7QM-3XPA-9RTD-2WBN',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('notarized');
  });

  it('shows document and signer names in any script, and stays signed', async () => {
    const bytes = Buffer.from(
      await certificatePdf(content({ translator: { name: '王芳 (Wang Fang)', credentials: null } }), signer),
    );
    const { text } = await read(bytes);
    for (const expected of [
      'Chinese into English',
      '出生证明.pdf',
      '出生证明.en.pdf',
      'Digitally signed by 王芳 (Wang Fang)',
    ])
      expect(text).toContain(expected);
    expect(verifyPdfSignature(bytes)).toMatchObject({ subFilter: 'ETSI.CAdES.detached', coversWholeFile: true });
    expect(await signatureName(bytes)).toBe('王芳 (Wang Fang)');
  });

  it('keeps a signer name with an unbalanced parenthesis or a backslash intact', async () => {
    const bytes = Buffer.from(
      await certificatePdf(content({ translator: { name: 'Ann) O\\Neil (', credentials: null } }), signer),
    );
    expect(await signatureName(bytes)).toBe('Ann) O\\Neil (');
    expect(verifyPdfSignature(bytes).coversWholeFile).toBe(true);
  });

  it('states a recorded notarization with its details', async () => {
    const { text } = await read(Buffer.from(await certificatePdf(content({ notarization }), signer)));
    expect(text).toContain(
      'notarized on 21 November 2026 before Nora Notary, Notary Public, State of New York, County of Kings, commission no. 01NO6123456, commission expires 30 June 2028',
    );
  });

  it('runs a long document list over onto further pages, the table header and page footer on each', async () => {
    const documents = Array.from({ length: 30 }, (_, i) => ({
      source: `${'very long scanned exhibit name '.repeat(3)}${i}.pdf`,
      translation: `exhibit-${i}.en.pdf`,
      pages: i + 1,
      sha256: 'cd'.repeat(32),
    }));
    const bytes = Buffer.from(await certificatePdf(content({ documents, notarization }), signer));
    const { pages, text } = await read(bytes);
    expect(pages).toBeGreaterThan(1);
    for (let i = 0; i < 30; i++) expect(text).toContain(`exhibit-${i}.en.pdf`);
    for (let page = 1; page <= pages; page++)
      expect(text).toContain(`Page ${page} of ${pages} · Verification K7QM-3XPA-9RTD-2WBN`);
    expect(text.match(/SHA-256 of the translation/g)!.length).toBe(pages);
    for (const expected of ['Nora Notary', 'Sam Staff', 'ATA-certified translator no. 123456'])
      expect(text).toContain(expected);
    expect(verifyPdfSignature(bytes).coversWholeFile).toBe(true);
  });
});

/** A passphrase-protected PKCS#12 (AES-256, as OpenSSL 3 writes them), as production configures its own. */
function protectedP12(commonName: string, passphrase: string): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date();
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: 'commonName', value: commonName }]);
  cert.setIssuer([{ name: 'commonName', value: commonName }]);
  cert.sign(key, forge.md.sha256.create());
  return Buffer.from(
    forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [cert], passphrase, { algorithm: 'aes256' })).getBytes(),
    'binary',
  );
}

describe('PdfSigner with a configured PKCS#12', () => {
  const p12 = protectedP12('Acme Signing', 's3cret');

  it('signs certificate after certificate with a passphrase-protected identity, each signature valid', async () => {
    const signer = new PdfSigner(p12, 's3cret');
    for (const orderNumber of ['LT-1', 'LT-2']) {
      const signed = verifyPdfSignature(Buffer.from(await certificatePdf(content({ orderNumber }), signer)));
      expect(signed).toEqual({
        subFilter: 'ETSI.CAdES.detached',
        signerCommonName: 'Acme Signing',
        coversWholeFile: true,
      });
    }
  });

  it('stops the start when the configured identity does not open with its passphrase', () => {
    const p12Path = join(mkdtempSync(join(tmpdir(), 'ltk-p12-')), 'identity.p12');
    writeFileSync(p12Path, p12);
    expect(() => createPdfSigner({ p12Path, passphrase: 'wrong', selfSigned: false })).toThrow(
      /^SIGNING_P12_PATH is not a PKCS#12 identity .*(MAC|password)/i,
    );
    expect(createPdfSigner({ p12Path, passphrase: 's3cret', selfSigned: false })).toBeInstanceOf(PdfSigner);
  });
});
