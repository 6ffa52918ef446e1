import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type * as Forge from 'node-forge';
import { keptFile } from '../../shared/kept-file';

/**
 * The sandbox's signing identity: a self-signed certificate in a PKCS#12 file, made on first use and kept, so
 * every sandbox certificate of accuracy carries a real, verifiable signature. Production configures its own P12.
 */
export function sandboxP12(path: string): Buffer {
  return keptFile(path, selfSignedP12);
}

/** node-forge (for the certificate and the PKCS#12) is loaded only the first time an identity is made. */
function selfSignedP12(): Buffer {
  const forge = require('node-forge') as typeof Forge;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date();
  cert.validity.notAfter = new Date(Date.now() + 5 * 365 * 24 * 60 * 60 * 1000);
  const subject = [
    { name: 'commonName', value: 'Sandbox Certified Translator' },
    { name: 'organizationName', value: 'Legal Translation (sandbox)' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([{ name: 'keyUsage', digitalSignature: true, nonRepudiation: true }]);
  cert.sign(key, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], '', { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}
