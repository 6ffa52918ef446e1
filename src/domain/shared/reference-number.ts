import { randomInt } from 'node:crypto';

const ALPHANUMERICS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `<prefix>-<YYMM>-<6 uppercase alphanumerics>` (D10); `kind` adds a segment, as in `LT-INT-2611-AB12CD`. */
export function referenceNumber(prefix: string, now = new Date(), kind?: string): string {
  const yymm = `${String(now.getUTCFullYear()).slice(2)}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const random = Array.from({ length: 6 }, () => ALPHANUMERICS[randomInt(ALPHANUMERICS.length)]).join('');
  return [prefix, kind, yymm, random].filter(Boolean).join('-');
}
