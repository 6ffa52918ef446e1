import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that speaks the parts of PayPal's REST API the service uses: OAuth2 client credentials,
 * Orders v2 (create with PayPal-Request-Id idempotency, capture, read), Payments v2 (capture refunds, in full or
 * in part, never past what is left; capture look-up), and verify-webhook-signature. It holds orders in memory and
 * lets a test approve them, decline captures, refund in PayPal's dashboard, refuse refunds, or go down.
 */
export interface StandInOrder {
  id: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  amount: { currency_code: string; value: string };
  requestId: string;
  returnUrl: string;
  captureId?: string;
}

type Money = { currency_code: string; value: string };

/** A refund made at the stand-in, by the service (its PayPal-Request-Id) or in the dashboard (none). */
export interface StandInRefund {
  id: string;
  captureId: string;
  amount: Money;
  requestId: string;
  /** What the service sent as the refund's `custom_id`, echoed on the refund resource as PayPal does. */
  customId?: string;
}

/** The fields of each request's JSON body that the stand-in reads, as the service sends them. */
interface CreateOrderBody {
  intent: string;
  purchase_units: { amount: Money }[];
  payment_source: { paypal: { experience_context: { return_url: string } } };
}
interface RefundBody {
  amount?: Money;
  custom_id?: string;
}
interface VerifyWebhookBody {
  webhook_id: string;
  transmission_id: string;
  transmission_sig: string;
  webhook_event?: { id?: string };
}

const cents = (money: Money) => Math.round(Number(money.value) * 100);
const moneyOf = (amountCents: number, currency: string): Money => ({
  currency_code: currency,
  value: (amountCents / 100).toFixed(2),
});
const API = 'https://api-m.sandbox.paypal.com';

export async function startPayPalStandIn(
  credentials = { clientId: 'stand-in-client', secret: 'stand-in-secret', webhookId: 'WH-STAND-IN' },
) {
  const orders = new Map<string, StandInOrder>();
  const byRequestId = new Map<string, string>();
  const tokens = new Set<string>();
  const webhookSecret = randomBytes(16).toString('hex');
  const calls: string[] = [];
  const refunds: StandInRefund[] = [];
  /**
   * `captureDelayMs` holds a capture's answer (it is already made); `loseCaptureAnswer` captures and then answers
   * 503, as a timeout would look; `onCapture` is told of each capture as it happens (a test sends the webhook);
   * `refundsDown` answers refund requests alone 503; `loseRefundAnswer` refunds and then answers 503; `refuseRefunds` refuses each new refund with that issue
   * (REFUND_TIME_LIMIT_EXCEEDED, TRANSACTION_DISPUTED...), as PayPal does for good.
   */
  const mode = {
    refundsDown: false,
    loseRefundAnswer: false,
    refuseRefunds: null as string | null,
    down: false,
    declineCapture: false,
    captureDelayMs: 0,
    loseCaptureAnswer: false,
    onCapture: undefined as ((order: StandInOrder) => void) | undefined,
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  };
  const unprocessable = (res: ServerResponse, issue: string) =>
    send(res, 422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue }] });
  const captureOf = (captureId: string) => [...orders.values()].find((order) => order.captureId === captureId);
  const refundedCents = (captureId: string) =>
    refunds.filter((made) => made.captureId === captureId).reduce((sum, made) => sum + cents(made.amount), 0);
  /** A refund as PayPal's refund resource shows it (the refund's answer, a PAYMENT.CAPTURE.REFUNDED event's resource). */
  const representRefund = (made: StandInRefund) => ({
    id: made.id,
    amount: made.amount,
    ...(made.customId ? { custom_id: made.customId } : {}),
    status: 'COMPLETED',
    seller_payable_breakdown: {
      gross_amount: made.amount,
      paypal_fee: moneyOf(0, made.amount.currency_code),
      net_amount: made.amount,
      total_refunded_amount: moneyOf(refundedCents(made.captureId), made.amount.currency_code),
    },
    create_time: new Date().toISOString(),
    update_time: new Date().toISOString(),
    links: [
      { href: `${API}/v2/payments/refunds/${made.id}`, rel: 'self', method: 'GET' },
      { href: `${API}/v2/payments/captures/${made.captureId}`, rel: 'up', method: 'GET' },
    ],
  });
  /** `GET /v2/payments/captures/{id}`: COMPLETED, PARTIALLY_REFUNDED or REFUNDED by what went back. */
  const representCapture = (order: StandInOrder) => {
    const back = refundedCents(order.captureId!);
    return {
      id: order.captureId,
      status: back === 0 ? 'COMPLETED' : back < cents(order.amount) ? 'PARTIALLY_REFUNDED' : 'REFUNDED',
      amount: order.amount,
      final_capture: true,
      seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
      supplementary_data: { related_ids: { order_id: order.id } },
      create_time: new Date().toISOString(),
      update_time: new Date().toISOString(),
      links: [
        { href: `${API}/v2/payments/captures/${order.captureId}`, rel: 'self', method: 'GET' },
        { href: `${API}/v2/payments/captures/${order.captureId}/refund`, rel: 'refund', method: 'POST' },
        { href: `${API}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
      ],
    };
  };
  /** Refunds `amountCents` of a capture, or all that is left; the issue PayPal answers when it cannot. */
  const makeRefund = (
    order: StandInOrder,
    amountCents: number | null,
    requestId: string,
    customId?: string,
  ): StandInRefund | string => {
    const left = cents(order.amount) - refundedCents(order.captureId!);
    if (left === 0) return 'CAPTURE_FULLY_REFUNDED';
    if (amountCents !== null && amountCents > left) return 'REFUND_AMOUNT_EXCEEDED';
    const made = {
      id: `RF${randomBytes(6).toString('hex').toUpperCase()}`,
      captureId: order.captureId!,
      amount: moneyOf(amountCents ?? left, order.amount.currency_code),
      requestId,
      customId,
    };
    refunds.push(made);
    return made;
  };

  const represent = (order: StandInOrder) => ({
    id: order.id,
    status: order.status,
    purchase_units: [
      {
        amount: order.amount,
        ...(order.captureId
          ? { payments: { captures: [{ id: order.captureId, status: 'COMPLETED', amount: order.amount }] } }
          : {}),
      },
    ],
    links: [
      { rel: 'self', href: `https://api-m.sandbox.paypal.com/v2/checkout/orders/${order.id}`, method: 'GET' },
      { rel: 'payer-action', href: `https://www.sandbox.paypal.com/checkoutnow?token=${order.id}`, method: 'GET' },
    ],
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0];
    calls.push(`${req.method} ${path}`);
    if (mode.down) return send(res, 503, { name: 'SERVICE_UNAVAILABLE' });

    if (req.method === 'POST' && path === '/v1/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.secret}`).toString('base64')}`;
      if (req.headers.authorization !== expected || raw !== 'grant_type=client_credentials')
        return send(res, 401, { error: 'invalid_client' });
      const token = `A21.${randomBytes(12).toString('hex')}`;
      tokens.add(token);
      return send(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 32400 });
    }
    if (!tokens.has(String(req.headers.authorization ?? '').replace(/^Bearer /, '')))
      return send(res, 401, { error: 'invalid_token' });
    const body: unknown = raw ? JSON.parse(raw) : {};

    if (req.method === 'POST' && path === '/v2/checkout/orders') {
      const requestId = String(req.headers['paypal-request-id'] ?? '');
      const known = byRequestId.get(requestId);
      if (known) return send(res, 200, represent(orders.get(known)!));
      const create = body as CreateOrderBody;
      if (create.intent !== 'CAPTURE') return unprocessable(res, 'INVALID_INTENT');
      const order: StandInOrder = {
        id: randomBytes(8).toString('hex').toUpperCase(),
        status: 'CREATED',
        amount: create.purchase_units[0].amount,
        requestId,
        returnUrl: create.payment_source.paypal.experience_context.return_url,
      };
      orders.set(order.id, order);
      if (requestId) byRequestId.set(requestId, order.id);
      return send(res, 201, represent(order));
    }
    const capture = path.match(/^\/v2\/checkout\/orders\/([^/]+)\/capture$/);
    if (req.method === 'POST' && capture) {
      const order = orders.get(capture[1]);
      if (!order) return send(res, 404, { name: 'RESOURCE_NOT_FOUND' });
      if (order.status === 'COMPLETED') return unprocessable(res, 'ORDER_ALREADY_CAPTURED');
      if (order.status !== 'APPROVED') return unprocessable(res, 'ORDER_NOT_APPROVED');
      if (mode.declineCapture) return unprocessable(res, 'INSTRUMENT_DECLINED');
      Object.assign(order, { status: 'COMPLETED', captureId: `CAP${randomBytes(6).toString('hex').toUpperCase()}` });
      mode.onCapture?.(order);
      if (mode.captureDelayMs) await new Promise((resolve) => setTimeout(resolve, mode.captureDelayMs));
      if (mode.loseCaptureAnswer) return send(res, 503, { name: 'SERVICE_UNAVAILABLE' });
      return send(res, 201, represent(order));
    }
    const read = path.match(/^\/v2\/checkout\/orders\/([^/]+)$/);
    if (req.method === 'GET' && read) {
      const order = orders.get(read[1]);
      return order ? send(res, 200, represent(order)) : send(res, 404, { name: 'RESOURCE_NOT_FOUND' });
    }
    const refund = path.match(/^\/v2\/payments\/captures\/([^/]+)\/refund$/);
    if (req.method === 'POST' && refund) {
      // Like PayPal, a repeated PayPal-Request-Id answers the refund already made instead of refunding twice.
      const requestId = String(req.headers['paypal-request-id'] ?? '');
      if (mode.refundsDown) return send(res, 503, { name: 'SERVICE_UNAVAILABLE' });
      const known = refunds.find((made) => requestId && made.requestId === requestId);
      if (known) return send(res, 201, representRefund(known));
      const order = captureOf(refund[1]);
      if (!order) return send(res, 404, { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] });
      const { amount, custom_id: customId } = body as RefundBody;
      if (amount && amount.currency_code !== order.amount.currency_code)
        return unprocessable(res, 'REFUND_CAPTURE_CURRENCY_MISMATCH');
      if (mode.refuseRefunds) return unprocessable(res, mode.refuseRefunds);
      const made = makeRefund(order, amount ? cents(amount) : null, requestId, customId);
      if (typeof made === 'string') return unprocessable(res, made);
      return mode.loseRefundAnswer
        ? send(res, 503, { name: 'SERVICE_UNAVAILABLE' })
        : send(res, 201, representRefund(made));
    }
    const lookup = path.match(/^\/v2\/payments\/captures\/([^/]+)$/);
    if (req.method === 'GET' && lookup) {
      const order = captureOf(lookup[1]);
      return order
        ? send(res, 200, representCapture(order))
        : send(res, 404, { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] });
    }
    if (req.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const verify = body as VerifyWebhookBody;
      const valid =
        verify.webhook_id === credentials.webhookId &&
        verify.transmission_sig === sign(verify.transmission_id, String(verify.webhook_event?.id));
      return send(res, 200, { verification_status: valid ? 'SUCCESS' : 'FAILURE' });
    }
    send(res, 404, { name: 'RESOURCE_NOT_FOUND' });
  }

  const refundedEvent = (made: StandInRefund) => ({
    id: `WH-${randomBytes(8).toString('hex').toUpperCase()}`,
    event_version: '1.0',
    create_time: new Date().toISOString(),
    resource_type: 'refund',
    resource_version: '2.0',
    event_type: 'PAYMENT.CAPTURE.REFUNDED',
    summary: `A ${made.amount.value} ${made.amount.currency_code} capture payment was refunded`,
    resource: representRefund(made),
  });
  const sign = (transmissionId: string, eventId: string) =>
    createHmac('sha256', webhookSecret).update(`${transmissionId}|${eventId}`).digest('hex');
  const server = createServer(
    (req, res) => void handle(req, res).catch((error) => send(res, 500, { message: String(error) })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    credentials,
    orders,
    calls,
    refunds,
    mode,
    /** What the payer does on PayPal's page. */
    approve(orderId: string) {
      orders.get(orderId)!.status = 'APPROVED';
    },
    /** What the captured money of an order is now at PayPal, in cents. */
    refundedCents,
    /**
     * A refund made in PayPal's own dashboard (all that is left when `amountCents` is omitted), and the
     * PAYMENT.CAPTURE.REFUNDED event PayPal sends for it: its resource is the refund, whose `up` link is the capture.
     */
    refundInDashboard(captureId: string, amountCents?: number) {
      const made = makeRefund(captureOf(captureId)!, amountCents ?? null, '');
      if (typeof made === 'string') throw new Error(`PayPal would refuse this refund: ${made}`);
      return { refund: made, event: refundedEvent(made) };
    },
    /** The PAYMENT.CAPTURE.REFUNDED event PayPal sends for a refund (one made by the service, too). */
    refundedEvent,
    /** Headers PayPal would send with `event`; `forged` signs it with the wrong key. */
    signedHeaders(event: { id: string }, forged = false) {
      const transmissionId = randomBytes(8).toString('hex');
      return {
        'PayPal-Auth-Algo': 'SHA256withRSA',
        'PayPal-Cert-Url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42',
        'PayPal-Transmission-Id': transmissionId,
        'PayPal-Transmission-Sig': forged
          ? createHmac('sha256', 'wrong').update(transmissionId).digest('hex')
          : sign(transmissionId, event.id),
        'PayPal-Transmission-Time': new Date().toISOString(),
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The service's PayPal provider pointed at a running stand-in, as a test app's `payment` config. */
export const payPalConfig = (standIn: Awaited<ReturnType<typeof startPayPalStandIn>>) =>
  ({
    provider: 'paypal',
    baseUrl: standIn.baseUrl,
    clientId: standIn.credentials.clientId,
    clientSecret: standIn.credentials.secret,
    webhookId: standIn.credentials.webhookId,
  }) as const;
