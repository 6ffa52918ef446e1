import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const LENGTH = 40;

/** `<prefix><40 base62 characters>`: about 238 bits; bytes >= 248 are skipped so every character is equally likely. */
export function generateToken(prefix: string): string {
  let body = '';
  while (body.length < LENGTH) {
    for (const byte of randomBytes(LENGTH)) {
      if (byte < 248 && body.length < LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return prefix + body;
}

/** Keys and tokens are stored only as this hash (D13); lookups hash the presented value. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
