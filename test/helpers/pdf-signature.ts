import { createHash } from 'node:crypto';
import forge from 'node-forge';

export interface VerifiedSignature {
  subFilter: string;
  signerCommonName: string;
  coversWholeFile: boolean;
}

/**
 * Verifies a PDF's (last) signature as a reader would: the SHA-256 of the signed byte ranges must equal the
 * signed messageDigest attribute, and the signature over those attributes must verify with the embedded
 * certificate's public key. Throws on any mismatch.
 */
/** node-forge takes options its type declarations do not name: parse one DER value and ignore what follows. */
const fromDerPrefix = (bytes: string) =>
  (forge.asn1.fromDer as unknown as (bytes: string, options: { parseAllBytes: boolean }) => forge.asn1.Asn1)(bytes, {
    parseAllBytes: false,
  });

export function verifyPdfSignature(pdf: Buffer): VerifiedSignature {
  const text = pdf.toString('latin1');
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].pop();
  if (!ranges) throw new Error('no /ByteRange: the PDF is not signed');
  const [a, b, c, d] = ranges.slice(1, 5).map(Number);
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  // The placeholder is zero-padded after the DER; its own length says where it ends (a signature may end in 00).
  const hex = text.slice(a + b + 1, c - 1);
  const p7 = forge.pkcs7.messageFromAsn1(fromDerPrefix(forge.util.hexToBytes(hex))) as forge.pkcs7.PkcsSignedData & {
    rawCapture: { authenticatedAttributes: forge.asn1.Asn1[]; signature: string };
  };
  const certificate = p7.certificates[0];
  const attributes = p7.rawCapture.authenticatedAttributes;
  const digestAttribute = attributes.find(
    (attribute) =>
      forge.asn1.derToOid((attribute.value as forge.asn1.Asn1[])[0].value as string) === forge.pki.oids.messageDigest,
  );
  if (!digestAttribute) throw new Error('no messageDigest attribute');
  const signedDigest = ((digestAttribute.value as forge.asn1.Asn1[])[1].value as forge.asn1.Asn1[])[0].value as string;
  if (Buffer.from(signedDigest, 'binary').toString('hex') !== createHash('sha256').update(signed).digest('hex')) {
    throw new Error('the document changed after signing (digest mismatch)');
  }
  const set = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributes);
  const md = forge.md.sha256.create();
  md.update(forge.asn1.toDer(set).getBytes());
  if (!(certificate.publicKey as forge.pki.rsa.PublicKey).verify(md.digest().bytes(), p7.rawCapture.signature)) {
    throw new Error('the signature does not verify with the signer certificate');
  }
  return {
    subFilter: /\/SubFilter\s*\/([A-Za-z.]+)/.exec(text)?.[1] ?? '',
    signerCommonName: String((certificate.subject.getField('CN') as { value: unknown }).value),
    coversWholeFile: a === 0 && c + d === pdf.length,
  };
}
