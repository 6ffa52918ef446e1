import type { PaymentConfig } from '../../config/app-config';
import { ProviderUnavailableError } from '../../shared/errors';
import type {
  CaptureResult,
  CaptureState,
  Checkout,
  CheckoutRequest,
  PaymentEvent,
  PaymentProvider,
  Refund,
  RefundResult,
  WebhookHeaders,
} from './payment-provider';

type PayPalConfig = Extract<PaymentConfig, { provider: 'paypal' }>;

interface PayPalResponse {
  status: number;
  body: Record<string, unknown>;
}

const TIMEOUT_MS = 15_000;

/**
 * PayPal Orders v2 (D9): OAuth2 client credentials (token cached until shortly before expiry), orders with
 * intent CAPTURE and a PayPal-Request-Id, capture after approval, refunds, and webhook verification through
 * PayPal's verify-webhook-signature API. Unreachable or failing PayPal is a ProviderUnavailableError (503).
 */
export class PayPalPaymentProvider implements PaymentProvider {
  readonly name = 'paypal';
  private token: { value: string; expiresAt: number } | undefined;

  constructor(
    private readonly config: PayPalConfig,
    private readonly appUrl: string,
  ) {}

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const { status, body } = await this.call('POST', '/v2/checkout/orders', {
      requestId: request.requestId,
      body: {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: request.reference,
            custom_id: request.requestId,
            description: request.description.slice(0, 127),
            amount: { currency_code: request.currency, value: (request.amountCents / 100).toFixed(2) },
          },
        ],
        payment_source: {
          paypal: {
            experience_context: {
              return_url: `${this.appUrl}/api/v1/payments/paypal/return`,
              cancel_url: `${this.appUrl}/api/v1/payments/paypal/cancel`,
              user_action: 'PAY_NOW',
              shipping_preference: 'NO_SHIPPING',
            },
          },
        },
      },
    });
    const links = (body.links as { rel: string; href: string }[] | undefined) ?? [];
    const approve = links.find((link) => link.rel === 'payer-action' || link.rel === 'approve');
    if (status !== 200 && status !== 201) throw this.unavailable(`create order answered ${status}`);
    if (typeof body.id !== 'string' || !approve)
      throw this.unavailable('create order answered without an id or approve link');
    return { providerOrderId: body.id, approvalUrl: approve.href };
  }

  async capture(providerOrderId: string): Promise<CaptureResult> {
    const path = `/v2/checkout/orders/${encodeURIComponent(providerOrderId)}`;
    let { status, body } = await this.call('POST', `${path}/capture`, {
      requestId: `capture-${providerOrderId}`,
      body: {},
    });
    if (status === 422 && issue(body) === 'ORDER_ALREADY_CAPTURED') ({ status, body } = await this.call('GET', path));
    if (
      status === 422 &&
      ['INSTRUMENT_DECLINED', 'PAYER_ACTION_REQUIRED', 'ORDER_NOT_APPROVED'].includes(issue(body) ?? '')
    ) {
      return { status: 'declined' };
    }
    if (status !== 200 && status !== 201) throw this.unavailable(`capture answered ${status}`);
    const capture = (
      body.purchase_units as { payments?: { captures?: { id: string; status: string }[] } }[] | undefined
    )?.[0]?.payments?.captures?.[0];
    if (capture && (capture.status === 'COMPLETED' || capture.status === 'PENDING'))
      return { status: 'completed', captureId: capture.id };
    return { status: 'declined' };
  }

  /**
   * Refunds `amountCents`, or, when null, all that is left of the capture (PayPal's refund without an amount).
   * PayPal never refunds more than is left: it answers CAPTURE_FULLY_REFUNDED or REFUND_AMOUNT_EXCEEDED, which the
   * caller settles by looking the capture up. Any other refusal is for good, except PENDING_CAPTURE (not yet).
   */
  async refund(request: {
    captureId: string;
    amountCents: number | null;
    currency: string;
    requestId: string;
  }): Promise<RefundResult> {
    const { status, body } = await this.call(
      'POST',
      `/v2/payments/captures/${encodeURIComponent(request.captureId)}/refund`,
      {
        requestId: request.requestId,
        // The request id again as `custom_id`, which PayPal echoes on the refund its webhook names: a refund whose
        // answer was lost is then known as ours when its event comes first.
        body: {
          custom_id: request.requestId,
          ...(request.amountCents === null ? {} : { amount: money(request.amountCents, request.currency) }),
        },
      },
    );
    if (status === 200 || status === 201) {
      const refund = refundOf(body);
      if (!refund) throw this.unavailable('refund answered without an id or amount');
      // A refund that failed or was cancelled at PayPal is the answer to this request id for good.
      if (body.status === 'FAILED' || body.status === 'CANCELLED')
        return { status: 'refused', reason: `Refund ${String(body.status).toLowerCase()} at PayPal` };
      return { status: 'made', ...refund };
    }
    const reason = issue(body);
    if (status === 422 && (reason === 'CAPTURE_FULLY_REFUNDED' || reason === 'REFUND_AMOUNT_EXCEEDED'))
      return { status: 'too_much' };
    if ((status === 422 && reason === 'PENDING_CAPTURE') || status === 401 || status === 409)
      throw this.unavailable(`refund answered ${status} ${reason ?? ''}`);
    if (status >= 400 && status < 500) return { status: 'refused', reason: reason ?? `PayPal answered ${status}` };
    throw this.unavailable(`refund answered ${status}`);
  }

  /** `GET /v2/payments/captures/{id}`: its amount, and REFUNDED once all of it went back (PARTIALLY_REFUNDED before). */
  async lookupCapture(captureId: string): Promise<CaptureState> {
    const { status, body } = await this.call('GET', `/v2/payments/captures/${encodeURIComponent(captureId)}`);
    const amount = moneyOf(body.amount);
    if (status !== 200 || !amount) throw this.unavailable(`capture look-up answered ${status}`);
    return { ...amount, fullyRefunded: body.status === 'REFUNDED' };
  }

  /** An approved-but-uncaptured CAPTURE order cannot be voided at PayPal; unpaid orders simply expire there. */
  async void(): Promise<void> {}

  checkoutFromReturn(query: Record<string, unknown>): string | null {
    return typeof query.token === 'string' && query.token ? query.token : null;
  }

  /** Verified by PayPal itself (verify-webhook-signature for our webhook id), then named in neutral terms. */
  async parseWebhook(headers: WebhookHeaders, rawBody: Buffer): Promise<PaymentEvent | null> {
    const event = parseJson(rawBody) as PayPalEvent | null;
    if (typeof event?.id !== 'string' || typeof event.event_type !== 'string') return null;
    if (!(await this.verifyWebhook(headers, event))) return null;
    const resource = event.resource ?? {};
    const captureOf = resource.supplementary_data?.related_ids?.order_id;
    const eventId = event.id;
    switch (event.event_type) {
      case 'CHECKOUT.ORDER.APPROVED':
        return typeof resource.id === 'string'
          ? { kind: 'approved', eventId, providerOrderId: resource.id }
          : { kind: 'ignored', eventId };
      case 'PAYMENT.CAPTURE.COMPLETED':
        return captureOf && typeof resource.id === 'string'
          ? { kind: 'captured', eventId, providerOrderId: captureOf, captureId: resource.id }
          : { kind: 'ignored', eventId };
      case 'PAYMENT.CAPTURE.REVERSED':
      case 'PAYMENT.CAPTURE.REFUNDED': {
        // The resource is the refund (or reversal): its capture is its `up` link, its order the related ids if given.
        const captureId =
          resource.links?.find((link) => link.rel === 'up')?.href?.match(/\/v2\/payments\/captures\/([^/?]+)$/)?.[1] ??
          null;
        const reason = `Payment ${event.event_type === 'PAYMENT.CAPTURE.REVERSED' ? 'reversed' : 'refunded'} at PayPal`;
        // Only a completed refund with its id and amount says how much went back; anything less is looked up.
        const refund = resource.status === 'COMPLETED' ? refundOf(resource) : null;
        if (captureOf) return { kind: 'reversed', eventId, providerOrderId: captureOf, captureId, reason, refund };
        return captureId
          ? { kind: 'reversed', eventId, providerOrderId: null, captureId, reason, refund }
          : { kind: 'ignored', eventId };
      }
      default:
        // PAYMENT.CAPTURE.DENIED and anything else: the checkout simply stays unpaid.
        return { kind: 'ignored', eventId };
    }
  }

  private async verifyWebhook(headers: WebhookHeaders, event: PayPalEvent): Promise<boolean> {
    const header = (name: string) => {
      const value = headers[`paypal-${name}`];
      return typeof value === 'string' && value ? value : undefined;
    };
    const signed = {
      auth_algo: header('auth-algo'),
      cert_url: header('cert-url'),
      transmission_id: header('transmission-id'),
      transmission_sig: header('transmission-sig'),
      transmission_time: header('transmission-time'),
    };
    if (Object.values(signed).some((value) => value === undefined)) return false;
    const { status, body } = await this.call('POST', '/v1/notifications/verify-webhook-signature', {
      body: { ...signed, webhook_id: this.config.webhookId, webhook_event: event },
    });
    return status === 200 && body.verification_status === 'SUCCESS';
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    const response = await this.fetch('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
    if (!response.ok || !body.access_token) throw this.unavailable(`token answered ${response.status}`);
    // Renew a minute early so a request never goes out with a token that expires on the way.
    this.token = { value: body.access_token, expiresAt: Date.now() + Math.max(0, (body.expires_in ?? 0) - 60) * 1000 };
    return body.access_token;
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    options: { requestId?: string; body?: unknown } = {},
  ): Promise<PayPalResponse> {
    const send = async () =>
      this.fetch(path, {
        method,
        headers: {
          Authorization: `Bearer ${await this.accessToken()}`,
          'Content-Type': 'application/json',
          Prefer: 'return=representation',
          ...(options.requestId ? { 'PayPal-Request-Id': options.requestId } : {}),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    let response = await send();
    if (response.status === 401) {
      this.token = undefined; // revoked or expired early: one fresh token, one more try
      response = await send();
    }
    if (response.status >= 500 || response.status === 429)
      throw this.unavailable(`${path} answered ${response.status}`);
    return {
      status: response.status,
      body: ((await response.json().catch(() => ({}))) ?? {}) as Record<string, unknown>,
    };
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.config.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new ProviderUnavailableError('Payment provider', 30, error);
    }
  }

  private unavailable(detail: string): ProviderUnavailableError {
    return new ProviderUnavailableError('Payment provider', 30, new Error(`PayPal: ${detail}`));
  }
}

interface PayPalEvent {
  id?: unknown;
  event_type?: unknown;
  resource?: {
    id?: unknown;
    status?: unknown;
    amount?: unknown;
    custom_id?: unknown;
    links?: { rel?: string; href?: string }[];
    supplementary_data?: { related_ids?: { order_id?: string } };
  };
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
}

const money = (cents: number, currency: string) => ({ value: (cents / 100).toFixed(2), currency_code: currency });

/** PayPal's `{value: "9.90", currency_code: "USD"}` in cents; null when it is not a plain amount with two decimals at most. */
function moneyOf(amount: unknown): { amountCents: number; currency: string } | null {
  const { value, currency_code: currency } = (amount ?? {}) as { value?: unknown; currency_code?: unknown };
  const parts = typeof value === 'string' ? value.match(/^(\d{1,10})(?:\.(\d{1,2}))?$/) : null;
  if (!parts || typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return null;
  return { amountCents: Number(parts[1]) * 100 + Number((parts[2] ?? '').padEnd(2, '0')), currency };
}

/**
 * A refund resource (a refund's answer, a webhook's resource) as the id and the amount it refunded, and the request id
 * the service asked it under (its `custom_id`) when it was one of ours.
 */
function refundOf(resource: { id?: unknown; amount?: unknown; custom_id?: unknown }): Refund | null {
  const amount = moneyOf(resource.amount);
  const requestId = typeof resource.custom_id === 'string' ? resource.custom_id : null;
  return typeof resource.id === 'string' && resource.id && amount
    ? { refundId: resource.id, ...amount, requestId }
    : null;
}

const issue = (body: Record<string, unknown>) => (body.details as { issue?: string }[] | undefined)?.[0]?.issue;
