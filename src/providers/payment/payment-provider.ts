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
 * A provider's webhook in the service's own words: the payer approved a checkout, money was captured, or
 * captured money went back to the payer (refunded or reversed at the provider). Anything else is `ignored`.
 */
export type PaymentEvent =
  | { kind: 'approved'; eventId: string; providerOrderId: string }
  | { kind: 'captured'; eventId: string; providerOrderId: string; captureId: string }
  | { kind: 'reversed'; eventId: string; providerOrderId: string; reason: string }
  | { kind: 'ignored'; eventId: string };

/** Header names in lower case, as Node gives them. */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

/**
 * A payment provider (Medusa's shape): create a hosted checkout, capture after the payer approves, refund,
 * void, and read its webhooks and return links. Failures to reach the provider are ProviderUnavailableError
 * (503). Capture and refund are idempotent at the provider for the same checkout or capture, so a call whose
 * answer was lost can be made again (D26).
 */
export interface PaymentProvider {
  readonly name: string;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  capture(providerOrderId: string): Promise<CaptureResult>;
  refund(captureId: string, amountCents: number, currency: string): Promise<void>;
  /** Withdraws an unpaid checkout where the provider can; unpaid checkouts that cannot be withdrawn simply expire. */
  void(providerOrderId: string): Promise<void>;
  /** The checkout a payer's return or cancel link names, or null. */
  checkoutFromReturn(query: Record<string, unknown>): string | null;
  /** A verified webhook as a neutral event; null when it is not from the provider (bad signature, bad shape). */
  parseWebhook(headers: WebhookHeaders, rawBody: Buffer): Promise<PaymentEvent | null>;
}
