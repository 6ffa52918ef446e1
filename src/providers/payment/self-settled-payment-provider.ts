import type {
  CaptureResult,
  CaptureState,
  Checkout,
  CheckoutRequest,
  PaymentEvent,
  PaymentProvider,
  RefundResult,
} from './payment-provider';

/** Where a self-settled provider's checkouts are served, and how its ids are made. */
export interface SelfSettledShape {
  /** The provider's name on its payments. */
  name: string;
  /** What its ids start with (`SBX`, `ACC`). */
  prefix: string;
  /** The path of this service's page for a checkout, before its id. */
  pagePath: string;
  /** An unguessable token naming one checkout. */
  newToken: () => string;
}

/**
 * A provider whose payments the service settles itself (the sandbox's checkout page, D9; work on account, D31): the
 * checkout is a page of this service, a capture always succeeds, a refund is always made (the payment row's books are
 * all there is), and there are no webhooks.
 */
export abstract class SelfSettledPaymentProvider implements PaymentProvider {
  readonly name: string;

  protected constructor(
    private readonly appUrl: string,
    private readonly shape: SelfSettledShape,
  ) {
    this.name = shape.name;
  }

  async createCheckout(_request: CheckoutRequest): Promise<Checkout> {
    const providerOrderId = `${this.shape.prefix}-${this.shape.newToken()}`;
    return { providerOrderId, approvalUrl: `${this.appUrl}${this.shape.pagePath}/${providerOrderId}` };
  }

  async capture(providerOrderId: string): Promise<CaptureResult> {
    // Derived from the checkout, as a real provider answers a repeated capture with the same capture.
    const token = providerOrderId.slice(this.shape.prefix.length + 1);
    return { status: 'completed', captureId: `${this.shape.prefix}-CAP-${token}` };
  }

  /** Always made, by its request id. */
  async refund(request: { amountCents: number | null; currency: string; requestId: string }): Promise<RefundResult> {
    return {
      status: 'made',
      refundId: `${this.shape.prefix}-RF-${request.requestId}`,
      amountCents: request.amountCents ?? 0,
      currency: request.currency,
    };
  }

  /** Never asked: its refunds are always made, and there are no webhooks to leave a refund unclear. */
  async lookupCapture(): Promise<CaptureState> {
    throw new Error(`The ${this.name} provider has no captures to look up.`);
  }

  async void(): Promise<void> {}

  checkoutFromReturn(_query: Record<string, unknown>): string | null {
    return null;
  }

  async parseWebhook(): Promise<PaymentEvent | null> {
    return null;
  }
}
