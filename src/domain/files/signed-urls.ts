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

  downloadUrl(fileId: string, now = Date.now()): string {
    const path = downloadPath(fileId);
    const expires = Math.floor(now / 1000) + DOWNLOAD_LINK_TTL_SECONDS;
    return `${this.appUrl}${path}?expires=${expires}&signature=${sign(this.key, path, expires)}`;
  }

  /** True when the signature matches any current or previous key and the link has not expired. */
  verify(fileId: string, expires: unknown, signature: unknown, now = Date.now()): boolean {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return false;
    if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
    if (Number(expires) * 1000 < now) return false;
    const given = Buffer.from(signature, 'hex');
    const path = downloadPath(fileId);
    return [this.key, ...this.previousKeys].some((key) => timingSafeEqual(given, Buffer.from(sign(key, path, Number(expires)), 'hex')));
  }
}

const downloadPath = (fileId: string) => `/api/v1/files/${fileId}/download`;

const sign = (key: string, path: string, expires: number) =>
  createHmac('sha256', key).update(`${path}?expires=${expires}`).digest('hex');
