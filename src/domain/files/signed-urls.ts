import { createHmac, timingSafeEqual } from 'node:crypto';

export const DOWNLOAD_LINK_TTL_SECONDS = 5 * 60;

/**
 * Download links signed with HMAC-SHA256 over the path and the query (D5): host-independent, so a
 * TLS-terminating proxy does not break them. Earlier keys still verify while a rotation completes.
 */
export class SignedUrls {
  constructor(
    private readonly appUrl: string,
    private readonly key: string,
    private readonly previousKeys: readonly string[],
  ) {}

  /** `staff` links also open source files (D18); they carry `scope=staff`, which the signature covers. */
  downloadUrl(fileId: string, now = Date.now(), staff = false): string {
    const path = downloadPath(fileId);
    const query = `expires=${Math.floor(now / 1000) + DOWNLOAD_LINK_TTL_SECONDS}${staff ? STAFF_SCOPE : ''}`;
    return `${this.appUrl}${path}?${query}&signature=${sign(this.key, path, query)}`;
  }

  /**
   * The link's scope (`client` or `staff`) when the signature matches any current or previous key and it has not
   * expired; `expired` when the signature matches but its time is past (a genuine link, only old); null otherwise.
   */
  verify(
    fileId: string,
    expires: unknown,
    signature: unknown,
    scope: unknown = undefined,
    now = Date.now(),
  ): 'client' | 'staff' | 'expired' | null {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return null;
    if (scope !== undefined && scope !== 'staff') return null;
    const query = `expires=${expires}${scope ? STAFF_SCOPE : ''}`;
    if (!signedByAny([this.key, ...this.previousKeys], `${downloadPath(fileId)}?${query}`, signature)) return null;
    if (Number(expires) * 1000 < now) return 'expired';
    return scope ? 'staff' : 'client';
  }
}

const STAFF_SCOPE = '&scope=staff';

const downloadPath = (fileId: string) => `/api/v1/files/${fileId}/download`;

const sign = (key: string, path: string, query: string) => hmac(key, `${path}?${query}`);

/** HMAC-SHA256 of `text` with `key`, in hex: what the service's signed links carry. */
export const hmac = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');

/** Whether `signature` (hex) is `text` signed with one of `keys`, compared in constant time. */
export function signedByAny(keys: readonly string[], text: string, signature: unknown): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  return keys.some((key) => timingSafeEqual(given, Buffer.from(hmac(key, text), 'hex')));
}
