import { randomBytes } from 'node:crypto';
import { SelfSettledPaymentProvider } from './self-settled-payment-provider';

/** The provider name an order or booking placed on account carries (D31). */
export const ON_ACCOUNT = 'account';

/**
 * Placing work on account (D31): no money moves, the monthly invoice collects it. The "checkout" is the service's own
 * "Place order on account" page, named by an unguessable token; a capture is the placement itself, a refund a credit
 * on the next invoice. Payments keep their books (captured = kept + refunded) exactly as with a card.
 */
export class AccountPaymentProvider extends SelfSettledPaymentProvider {
  constructor(appUrl: string) {
    super(appUrl, {
      name: ON_ACCOUNT,
      prefix: 'ACC',
      pagePath: '/api/v1/on-account',
      newToken: () => randomBytes(18).toString('base64url'),
    });
  }
}
