import { DOWNLOAD_LINK_TTL_SECONDS, hmac, signedByAny } from '../files/signed-urls';

/** An invoice's PDF link (D31), signed like a file's download link and as short-lived: 5 minutes. */
export class InvoiceLinks {
  constructor(
    private readonly appUrl: string,
    private readonly keys: readonly string[],
  ) {}

  downloadUrl(invoiceId: string, now = Date.now()): string {
    const query = `expires=${Math.floor(now / 1000) + DOWNLOAD_LINK_TTL_SECONDS}`;
    return `${this.appUrl}${pdfPath(invoiceId)}?${query}&signature=${hmac(this.keys[0], `${pdfPath(invoiceId)}?${query}`)}`;
  }

  /** Whether the link is ours and still valid. */
  verify(invoiceId: string, expires: unknown, signature: unknown, now = Date.now()): boolean {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return false;
    return (
      signedByAny(this.keys, `${pdfPath(invoiceId)}?expires=${expires}`, signature) && Number(expires) * 1000 >= now
    );
  }
}

const pdfPath = (invoiceId: string) => `/api/v1/invoices/${invoiceId}/pdf`;
