import { hmac, signedByAny } from '../files/signed-urls';

/** The page where a person gives an order's shipping address (D22, D30), outside the API. */
export const ADDRESS_PAGE_PATH = '/shipping-address';

/**
 * Signed links to that page, one per order (D30): e-mails send a person there, not to the API. The signature is the
 * permission, as a sandbox checkout's id is, and covers the order id alone: the link works until the hard copies ship,
 * and earlier application keys still verify during a rotation.
 */
export class AddressLinks {
  constructor(
    private readonly appUrl: string,
    private readonly keys: readonly string[],
  ) {}

  url(orderId: string): string {
    return `${this.appUrl}${ADDRESS_PAGE_PATH}/${orderId}?signature=${hmac(this.keys[0], message(orderId))}`;
  }

  verify(orderId: string, signature: unknown): boolean {
    return signedByAny(this.keys, message(orderId), signature);
  }
}

const message = (orderId: string) => `${ADDRESS_PAGE_PATH}/${orderId}`;
