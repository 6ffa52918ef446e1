import { randomBytes } from 'node:crypto';
import type {
  CaptureResult,
  CaptureState,
  Checkout,
  CheckoutRequest,
  PaymentEvent,
  PaymentProvider,
  RefundResult,
} from './payment-provider';

/** The provider name an order or booking placed on account carries (D31). */
export const ON_ACCOUNT = 'account';

/**
 * Placing work on account (D31): no money moves, the monthly invoice collects it. The "checkout" is the service's own
 * "Place order on account" page, named by an unguessable token; a capture is the placement itself, a refund a credit
 * on the next invoice. Payments keep their books (captured = kept + refunded) exactly as with a card.
 */
export class AccountPaymentProvider implements PaymentProvider {
  readonly name = ON_ACCOUNT;

  constructor(private readonly appUrl: string) {}

  async createCheckout(_request: CheckoutRequest): Promise<Checkout> {
    const providerOrderId = `ACC-${randomBytes(18).toString('base64url')}`;
    return { providerOrderId, approvalUrl: `${this.appUrl}/api/v1/on-account/${providerOrderId}` };
  }

  async capture(providerOrderId: string): Promise<CaptureResult> {
    return { status: 'completed', captureId: `ACC-CAP-${providerOrderId.slice(4)}` };
  }

  /** Always made, by its request id: a credit on the next invoice. */
  async refund(request: { amountCents: number | null; currency: string; requestId: string }): Promise<RefundResult> {
    return {
      status: 'made',
      refundId: `ACC-RF-${request.requestId}`,
      amountCents: request.amountCents ?? 0,
      currency: request.currency,
    };
  }

  /** Never asked: refunds on account are always made, and there are no webhooks. */
  async lookupCapture(): Promise<CaptureState> {
    throw new Error('Work on account has no captures to look up.');
  }

  async void(): Promise<void> {}

  checkoutFromReturn(): string | null {
    return null;
  }

  async parseWebhook(): Promise<PaymentEvent | null> {
    return null;
  }
}
