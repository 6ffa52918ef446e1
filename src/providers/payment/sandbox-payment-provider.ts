import { randomUUID } from 'node:crypto';
import type {
  CaptureResult,
  CaptureState,
  Checkout,
  CheckoutRequest,
  PaymentEvent,
  PaymentProvider,
  RefundResult,
} from './payment-provider';

/**
 * The sandbox deployment's provider (D1, D9): checkouts are pages served by this service itself
 * (/api/v1/sandbox/checkout/{id}) with Pay and Cancel buttons; the payment row is the whole state, so a
 * capture always succeeds and there are no webhooks.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox';

  constructor(private readonly appUrl: string) {}

  async createCheckout(_request: CheckoutRequest): Promise<Checkout> {
    const providerOrderId = `SBX-${randomUUID()}`;
    return { providerOrderId, approvalUrl: `${this.appUrl}/api/v1/sandbox/checkout/${providerOrderId}` };
  }

  async capture(providerOrderId: string): Promise<CaptureResult> {
    // Derived from the checkout, as a real provider answers a repeated capture with the same capture.
    return { status: 'completed', captureId: `SBX-CAP-${providerOrderId.slice(4)}` };
  }

  /** Always made: the row's own books are all there is, so nothing else is left to refund. */
  async refund(request: { amountCents: number | null; currency: string; requestId: string }): Promise<RefundResult> {
    return {
      status: 'made',
      refundId: `SBX-RF-${request.requestId}`,
      amountCents: request.amountCents ?? 0,
      currency: request.currency,
    };
  }

  /** Never asked: a sandbox refund is always made, and there are no webhooks to leave a refund unclear. */
  async lookupCapture(): Promise<CaptureState> {
    throw new Error('The sandbox provider has no captures to look up.');
  }

  async void(): Promise<void> {}

  checkoutFromReturn(query: Record<string, unknown>): string | null {
    return typeof query.token === 'string' && query.token ? query.token : null;
  }

  async parseWebhook(): Promise<PaymentEvent | null> {
    return null;
  }
}
