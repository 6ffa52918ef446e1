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

/** Money that went back to the payer, as the provider counts it: its refund id names it once and for all. */
export interface Refund {
  refundId: string;
  amountCents: number;
  currency: string;
  /** The request id the service asked for it under, when the provider says (a webhook's refund): one of ours. */
  requestId?: string | null;
}

/**
 * A refund request's answer. `too_much`: less is left to refund at the provider than was asked (refunded there
 * already, in part or in full): the capture is then looked up. `refused`: refused for good (time limit, dispute,
 * account restricted), with the provider's reason; asking again would be refused again.
 */
export type RefundResult =
  ({ status: 'made' } & Refund) | { status: 'too_much' } | { status: 'refused'; reason: string };

/** A capture as the provider holds it now: how much it took, and whether all of it went back. */
export interface CaptureState {
  amountCents: number;
  currency: string;
  fullyRefunded: boolean;
}

/**
 * A provider's webhook in the service's own words: the payer approved a checkout, money was captured, or
 * captured money went back to the payer (refunded or reversed at the provider). Anything else is `ignored`.
 * A reversal names its checkout or its capture (or both), and the refund it was when the event says so in
 * terms that can be trusted; without one (`refund` null) the capture is looked up.
 */
export type PaymentEvent =
  | { kind: 'approved'; eventId: string; providerOrderId: string }
  | { kind: 'captured'; eventId: string; providerOrderId: string; captureId: string }
  | ({ kind: 'reversed'; eventId: string; reason: string; refund: Refund | null } & ReversedPayment)
  | { kind: 'ignored'; eventId: string };

export type ReversedPayment =
  { providerOrderId: string; captureId: string | null } | { providerOrderId: null; captureId: string };

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
  /**
   * Refunds `amountCents` of a capture, or all that is left of it when null. `requestId` makes a repeated request
   * the same refund at the provider (a lost answer asked again).
   */
  refund(request: {
    captureId: string;
    amountCents: number | null;
    currency: string;
    requestId: string;
  }): Promise<RefundResult>;
  /** The capture as the provider holds it now, to settle what an answer or an event leaves unclear. */
  lookupCapture(captureId: string): Promise<CaptureState>;
  /** Withdraws an unpaid checkout where the provider can; unpaid checkouts that cannot be withdrawn simply expire. */
  void(providerOrderId: string): Promise<void>;
  /** The checkout a payer's return or cancel link names, or null. */
  checkoutFromReturn(query: Record<string, unknown>): string | null;
  /** A verified webhook as a neutral event; null when it is not from the provider (bad signature, bad shape). */
  parseWebhook(headers: WebhookHeaders, rawBody: Buffer): Promise<PaymentEvent | null>;
}
