import { readFileSync } from 'node:fs';
import type { AppConfig } from '../../config/app-config';
import { PdfSigner } from './pdf-signer';
import { sandboxP12 } from './sandbox-p12';

export function createPdfSigner(config: AppConfig['signing']): PdfSigner {
  return new PdfSigner(config.selfSigned ? sandboxP12(config.p12Path) : readFileSync(config.p12Path), config.passphrase);
}
