import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { certificatePdf, type CertificateContent } from '../../src/domain/orders/certificate';
import { PdfSigner } from '../../src/providers/signing/pdf-signer';
import { verifyPdfSignature } from '../helpers/pdf-signature';

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
  return Buffer.from(forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [cert], passphrase, { algorithm: 'aes256' })).getBytes(), 'binary');
}

const content: CertificateContent = {
  company: { name: 'Acme Legal Translations LLC', address: '100 Court Street' },
  clientName: 'Smith & Partners LLP',
  orderNumber: 'LT-2611-AB12CD',
  sourceLanguage: 'de',
  targetLanguage: 'en',
  documents: [{ source: 'urkunde.pdf', translation: 'urkunde.en.pdf', pages: 1, sha256: 'cd'.repeat(32) }],
  translator: { name: 'Rita Reviewer', credentials: 'ATA-certified translator no. 654321' },
  date: new Date('2026-11-22T10:00:00Z'),
  notarization: null,
  verification: { code: 'K7QM-3XPA-9RTD-2WBN', url: 'https://verify.example.test/verify/K7QM-3XPA-9RTD-2WBN' },
};

describe('PdfSigner with a configured PKCS#12', () => {
  const p12 = protectedP12('Acme Signing', 's3cret');

  it('signs certificate after certificate with a passphrase-protected identity, each signature valid', async () => {
    const signer = new PdfSigner(p12, 's3cret');
    for (const orderNumber of ['LT-1', 'LT-2']) {
      const signed = verifyPdfSignature(Buffer.from(await certificatePdf({ ...content, orderNumber }, signer)));
      expect(signed).toEqual({ subFilter: 'ETSI.CAdES.detached', signerCommonName: 'Acme Signing', coversWholeFile: true });
    }
  });

  it('refuses to sign with a wrong passphrase', async () => {
    await expect(certificatePdf(content, new PdfSigner(p12, 'wrong'))).rejects.toThrow(/MAC|password/i);
  });
});
