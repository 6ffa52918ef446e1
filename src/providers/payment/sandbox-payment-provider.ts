import { randomUUID } from 'node:crypto';
import type { CaptureResult, Checkout, CheckoutRequest, PaymentProvider } from './payment-provider';

/**
 * The sandbox deployment's provider (D1, D9): checkouts are pages served by this service itself
 * (/api/v1/sandbox/checkout/{id}) with Pay and Cancel buttons; the payment row is the whole state.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox';

  constructor(private readonly appUrl: string) {}

  async createCheckout(_request: CheckoutRequest): Promise<Checkout> {
    const providerOrderId = `SBX-${randomUUID()}`;
    return { providerOrderId, approvalUrl: `${this.appUrl}/api/v1/sandbox/checkout/${providerOrderId}` };
  }

  async capture(): Promise<CaptureResult> {
    return { status: 'completed', captureId: `SBX-CAP-${randomUUID()}` };
  }

  async refund(): Promise<void> {}

  async void(): Promise<void> {}
}
