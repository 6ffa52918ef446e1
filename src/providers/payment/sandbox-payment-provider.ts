import { randomUUID } from 'node:crypto';
import { SelfSettledPaymentProvider } from './self-settled-payment-provider';

/**
 * The sandbox deployment's provider (D1, D9): checkouts are pages served by this service itself
 * (/api/v1/sandbox/checkout/{id}) with Pay and Cancel buttons; the payment row is the whole state.
 */
export class SandboxPaymentProvider extends SelfSettledPaymentProvider {
  constructor(appUrl: string) {
    super(appUrl, { name: 'sandbox', prefix: 'SBX', pagePath: '/api/v1/sandbox/checkout', newToken: randomUUID });
  }

  override checkoutFromReturn(query: Record<string, unknown>): string | null {
    return typeof query.token === 'string' && query.token ? query.token : null;
  }
}
