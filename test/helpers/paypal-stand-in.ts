import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that speaks the parts of PayPal's REST API the service uses: OAuth2 client credentials,
 * Orders v2 (create with PayPal-Request-Id idempotency, capture, read), capture refunds, and
 * verify-webhook-signature. It holds orders in memory and lets a test approve them, decline captures, or go down.
 */
export interface StandInOrder {
  id: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  amount: { currency_code: string; value: string };
  requestId: string;
  returnUrl: string;
  captureId?: string;
}

export async function startPayPalStandIn(credentials = { clientId: 'stand-in-client', secret: 'stand-in-secret', webhookId: 'WH-STAND-IN' }) {
  const orders = new Map<string, StandInOrder>();
  const byRequestId = new Map<string, string>();
  const tokens = new Set<string>();
  const webhookSecret = randomBytes(16).toString('hex');
  const calls: string[] = [];
  const refunds: { captureId: string; amount: unknown; requestId: string }[] = [];
  /**
   * `captureDelayMs` holds a capture's answer (it is already made); `loseCaptureAnswer` captures and then answers
   * 503, as a timeout would look; `onCapture` is told of each capture as it happens (a test sends the webhook);
   * `refundedElsewhere` names captures refunded in PayPal's own dashboard, which a refund request is refused for;
   * `refundsDown` answers refund requests alone 503.
   */
  const mode = {
    refundedElsewhere: new Set<string>(),
    refundsDown: false,
    down: false,
    declineCapture: false,
    captureDelayMs: 0,
    loseCaptureAnswer: false,
    onCapture: undefined as ((order: StandInOrder) => void) | undefined,
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  };
  const unprocessable = (res: ServerResponse, issue: string) => send(res, 422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue }] });
  const represent = (order: StandInOrder) => ({
    id: order.id,
    status: order.status,
    purchase_units: [
      {
        amount: order.amount,
        ...(order.captureId ? { payments: { captures: [{ id: order.captureId, status: 'COMPLETED', amount: order.amount }] } } : {}),
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
      if (req.headers.authorization !== expected || raw !== 'grant_type=client_credentials') return send(res, 401, { error: 'invalid_client' });
      const token = `A21.${randomBytes(12).toString('hex')}`;
      tokens.add(token);
      return send(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 32400 });
    }
    if (!tokens.has(String(req.headers.authorization ?? '').replace(/^Bearer /, ''))) return send(res, 401, { error: 'invalid_token' });
    const body = raw ? JSON.parse(raw) : {};

    if (req.method === 'POST' && path === '/v2/checkout/orders') {
      const requestId = String(req.headers['paypal-request-id'] ?? '');
      const known = byRequestId.get(requestId);
      if (known) return send(res, 200, represent(orders.get(known)!));
      if (body.intent !== 'CAPTURE') return unprocessable(res, 'INVALID_INTENT');
      const order: StandInOrder = {
        id: randomBytes(8).toString('hex').toUpperCase(),
        status: 'CREATED',
        amount: body.purchase_units[0].amount,
        requestId,
        returnUrl: body.payment_source.paypal.experience_context.return_url,
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
      let index = refunds.findIndex((made) => requestId && made.requestId === requestId);
      if (index < 0 && mode.refundedElsewhere.has(refund[1])) return unprocessable(res, 'CAPTURE_FULLY_REFUNDED');
      if (index < 0) index = refunds.push({ captureId: refund[1], amount: body.amount, requestId }) - 1;
      return send(res, 201, { id: `RF${index + 1}`, status: 'COMPLETED' });
    }
    if (req.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const valid = body.webhook_id === credentials.webhookId && body.transmission_sig === sign(body.transmission_id, body.webhook_event?.id);
      return send(res, 200, { verification_status: valid ? 'SUCCESS' : 'FAILURE' });
    }
    send(res, 404, { name: 'RESOURCE_NOT_FOUND' });
  }

  const sign = (transmissionId: string, eventId: string) => createHmac('sha256', webhookSecret).update(`${transmissionId}|${eventId}`).digest('hex');
  const server = createServer((req, res) => void handle(req, res).catch((error) => send(res, 500, { message: String(error) })));
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
    /** Headers PayPal would send with `event`; `forged` signs it with the wrong key. */
    signedHeaders(event: { id: string }, forged = false) {
      const transmissionId = randomBytes(8).toString('hex');
      return {
        'PayPal-Auth-Algo': 'SHA256withRSA',
        'PayPal-Cert-Url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42',
        'PayPal-Transmission-Id': transmissionId,
        'PayPal-Transmission-Sig': forged ? createHmac('sha256', 'wrong').update(transmissionId).digest('hex') : sign(transmissionId, event.id),
        'PayPal-Transmission-Time': new Date().toISOString(),
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
