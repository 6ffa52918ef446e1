import { readFileSync } from 'node:fs';
import type { AppConfig } from '../../config/app-config';
import { PdfSigner } from './pdf-signer';
import { sandboxP12 } from './sandbox-p12';

/** The sandbox's self-signed identity, or the configured one, opened now: a wrong passphrase stops the start, not a completion. */
export function createPdfSigner(config: AppConfig['signing']): PdfSigner {
  if (config.selfSigned) return new PdfSigner(sandboxP12(config.p12Path), config.passphrase);
  const signer = new PdfSigner(readFileSync(config.p12Path), config.passphrase);
  try {
    signer.open();
  } catch (error) {
    throw new Error(
      `SIGNING_P12_PATH is not a PKCS#12 identity this service can sign with (check it and SIGNING_P12_PASSPHRASE): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return signer;
}
