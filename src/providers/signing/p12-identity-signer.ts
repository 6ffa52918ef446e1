import { constants, createPrivateKey, privateEncrypt, type KeyObject } from 'node:crypto';
import type * as Forge from 'node-forge';
import { Signer } from '@signpdf/signpdf';

/** DER of a SHA-256 DigestInfo up to the digest itself (RFC 8017 9.2, note 1). */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/**
 * The CMS signature of a PDF, made with a PKCS#12 identity read once: @signpdf's P12Signer decrypts the PKCS#12 on
 * every signature and signs with node-forge's JavaScript RSA, about 100 ms of a blocked event loop a certificate.
 * Here forge still builds the CMS structure, and node's native RSA signs it.
 */
export class P12IdentitySigner extends Signer {
  private readonly forge = require('node-forge') as typeof Forge;
  private readonly certificates: Forge.pki.Certificate[];
  private readonly certificate: Forge.pki.Certificate;
  private readonly key: KeyObject;

  constructor(p12: Buffer, passphrase: string) {
    super();
    const { forge } = this;
    const parsed = forge.pkcs12.pkcs12FromAsn1(
      forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary'))),
      false,
      passphrase,
    );
    const certBag = forge.pki.oids.certBag;
    const keyBag = forge.pki.oids.pkcs8ShroudedKeyBag;
    // forge reads RSA only: a bag it cannot read (an EC key or certificate) comes back empty.
    const certBags = parsed.getBags({ bagType: certBag })[certBag] ?? [];
    if (certBags.some((bag) => !bag.cert))
      throw new Error('The PKCS#12 file holds a certificate that is not RSA; only RSA identities are supported.');
    this.certificates = certBags.map((bag) => bag.cert!);
    const keyBags = parsed.getBags({ bagType: keyBag })[keyBag] ?? [];
    if (!keyBags.length) throw new Error('The PKCS#12 file holds no encrypted private key.');
    const privateKey = keyBags[0].key as Forge.pki.rsa.PrivateKey | null;
    if (!privateKey)
      throw new Error('The PKCS#12 file holds a private key that is not RSA; only RSA identities are supported.');
    // The last certificate of the key, as @signpdf's signer took it (a renewed certificate comes after the old one).
    const matching = this.certificates
      .filter((cert) => {
        const publicKey = cert.publicKey as Forge.pki.rsa.PublicKey;
        return publicKey.n.equals(privateKey.n) && publicKey.e.equals(privateKey.e);
      })
      .at(-1);
    if (!matching) throw new Error('The PKCS#12 file holds no certificate of its private key.');
    this.certificate = matching;
    this.key = createPrivateKey(forge.pki.privateKeyToPem(privateKey));
  }

  /** A detached CMS SignedData over the PDF's signed ranges, with the attributes @signpdf's signer wrote, in its order. */
  override async sign(pdfBuffer: Buffer, signingTime?: Date): Promise<Buffer> {
    const { forge } = this;
    const p7 = forge.pkcs7.createSignedData();
    p7.content = forge.util.createBuffer(pdfBuffer.toString('binary'));
    for (const cert of this.certificates) p7.addCertificate(cert);
    p7.addSigner({
      // forge asks its key to sign the attributes' digest (RSASSA-PKCS1-v1_5); node's RSA does it natively.
      key: { sign: (digest: Forge.md.MessageDigest) => this.rsaSign(digest) } as unknown as Forge.pki.rsa.PrivateKey,
      certificate: this.certificate,
      digestAlgorithm: forge.pki.oids.sha256,
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType, value: forge.pki.oids.data },
        { type: forge.pki.oids.signingTime, value: (signingTime ?? new Date()) as unknown as string },
        { type: forge.pki.oids.messageDigest },
      ],
    });
    p7.sign({ detached: true });
    return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
  }

  /** PKCS#1 v1.5 signing is the DigestInfo padded (type 1) and raised to the private exponent: privateEncrypt. */
  private rsaSign(digest: Forge.md.MessageDigest): string {
    const digestInfo = Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(digest.digest().getBytes(), 'binary')]);
    return privateEncrypt({ key: this.key, padding: constants.RSA_PKCS1_PADDING }, digestInfo).toString('binary');
  }
}
