export interface CheckoutRequest {
  /** Our payment id: the provider's idempotency key, so a retried create never makes two checkouts. */
  requestId: string;
  /** Shown to the payer (order number). */
  reference: string;
  description: string;
  amountCents: number;
  currency: string;
}

export interface Checkout {
  providerOrderId: string;
  approvalUrl: string;
}

export type CaptureResult = { status: 'completed'; captureId: string } | { status: 'declined' };

/**
 * A payment provider (Medusa's shape): create a hosted checkout, capture after the payer approves, refund,
 * void. Failures to reach the provider are ProviderUnavailableError, so the request answers 503 and the
 * caller's transaction rolls back.
 */
export interface PaymentProvider {
  readonly name: string;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  capture(providerOrderId: string): Promise<CaptureResult>;
  refund(captureId: string, amountCents: number, currency: string): Promise<void>;
  /** Withdraws an unpaid checkout where the provider can; unpaid checkouts that cannot be withdrawn simply expire. */
  void(providerOrderId: string): Promise<void>;
}
