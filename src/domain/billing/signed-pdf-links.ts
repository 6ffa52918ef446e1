import { DOWNLOAD_LINK_TTL_SECONDS, hmac, signedByAny } from '../files/signed-urls';

/**
 * A PDF the service draws on request (an invoice, a receipt; D31), opened by a link signed like a file's download link
 * and as short-lived: 5 minutes. The signature is the permission, so whoever was given the link may open it.
 */
export class SignedPdfLinks {
  constructor(
    private readonly appUrl: string,
    private readonly keys: readonly string[],
    /** The PDF's path under the service's address, by the id of what it draws. */
    private readonly pathOf: (id: string) => string,
  ) {}

  url(id: string, now = Date.now()): string {
    const query = `expires=${Math.floor(now / 1000) + DOWNLOAD_LINK_TTL_SECONDS}`;
    return `${this.appUrl}${this.pathOf(id)}?${query}&signature=${hmac(this.keys[0], `${this.pathOf(id)}?${query}`)}`;
  }

  /** Whether the link is ours and still valid. */
  verify(id: string, expires: unknown, signature: unknown, now = Date.now()): boolean {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return false;
    return signedByAny(this.keys, `${this.pathOf(id)}?expires=${expires}`, signature) && Number(expires) * 1000 >= now;
  }
}

/** An invoice's PDF (D31). */
export const invoicePdfPath = (invoiceId: string) => `/api/v1/invoices/${invoiceId}/pdf`;

/** A payment's receipt as a PDF (D31), behind the stable `receipt_url` that answers with a fresh link to it. */
export const receiptPdfPath = (paymentId: string) => `/api/v1/payments/${paymentId}/receipt/pdf`;
