import { randomBytes } from 'node:crypto';

/** Crockford's base 32: no I, L, O or U, so a code read aloud or typed from paper is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `XXXX-XXXX-XXXX-XXXX`: 80 random bits, too many to guess even without the rate limit on look-ups (D20). */
export function verificationCode(): string {
  const chars = [...randomBytes(16)].map((byte) => ALPHABET[byte % 32]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** A code as typed by a person: any case, spaces or no dashes; null when it cannot be one. */
export function normalizeCode(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const chars = input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  return /^[0-9A-HJKMNP-TV-Z]{16}$/.test(chars) ? chars.match(/.{4}/g)!.join('-') : null;
}
