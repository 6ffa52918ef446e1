import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** How every sealed text begins: a reader tells sealed text from plain text (the sandbox's) by it. */
export const SEALED_PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Text kept encrypted at rest (AES-256-GCM) under a key derived from APP_KEY for one purpose (HKDF-SHA256), so a
 * database copy, a backup or a row version left for vacuum holds nothing readable. Text sealed under an earlier
 * APP_KEY (APP_KEY_PREVIOUS) still opens while a rotation completes. `context` (a row's id) is authenticated with
 * the text: sealed text copied to another row does not open there.
 */
export class TextSeal {
  private readonly keys: Buffer[];

  constructor(purpose: string, key: string, previousKeys: readonly string[]) {
    this.keys = [key, ...previousKeys].map((appKey) => Buffer.from(hkdfSync('sha256', appKey, '', purpose, 32)));
  }

  seal(text: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0], iv, { authTagLength: TAG_BYTES }).setAAD(
      Buffer.from(context),
    );
    const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** The text, or null when no current or previous key opens it for `context` (or it was never sealed). */
  open(sealed: string, context: string): string | null {
    if (!sealed.startsWith(SEALED_PREFIX)) return null;
    const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) return null;
    const [iv, tag, body] = [
      bytes.subarray(0, IV_BYTES),
      bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES),
      bytes.subarray(IV_BYTES + TAG_BYTES),
    ];
    for (const key of this.keys) {
      try {
        // A tag length fixed here: node would otherwise accept a shortened one.
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES })
          .setAAD(Buffer.from(context))
          .setAuthTag(tag);
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch {
        // Not this key: try the next one.
      }
    }
    return null;
  }
}
