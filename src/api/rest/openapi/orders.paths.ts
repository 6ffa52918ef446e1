import { dataOf, json, listOf, nullable, object, pageParameters, pricedWorkProperties, ref, responseRef } from './components';

const ORDER_STATUSES = ['pending_payment', 'processing', 'in_review', 'completed', 'on_hold', 'cancelled'];
const idParam = (what: string) => ({ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: `${what} id.` });
const authErrors = { 401: responseRef('Unauthenticated'), 403: responseRef('Forbidden') };

export const orderSchemas = {
  Payment: object({
    provider: { type: 'string', examples: ['paypal', 'sandbox'] },
    provider_order_id: nullable({ type: 'string' }),
    approval_url: nullable({ type: 'string', format: 'uri' }),
    paid_at: nullable(ref('Timestamp')),
    refunded_at: nullable(ref('Timestamp')),
  }),
  OrderFile: object(
    {
      id: ref('Id'),
      type: { enum: ['source', 'translation', 'certificate'] },
      name: { type: 'string' },
      download_url: { type: 'string', format: 'uri', description: 'Translations and certificates: signed, valid 5 minutes.' },
    },
    ['id', 'type', 'name'],
  ),
  Order: object({
    id: ref('Id'),
    number: { type: 'string', pattern: '^[A-Z0-9]{2,10}-\\d{4}-[A-Z0-9]{6}$' },
    status: { enum: ORDER_STATUSES },
    ...pricedWorkProperties,
    quote_id: ref('Id'),
    files: { type: 'array', items: ref('OrderFile'), description: 'The sources; translations and certificates only once the order is completed (D18).' },
    payment: ref('Payment'),
    hold_reason: nullable({ type: 'string' }),
    shipment: nullable({
      ...object({ carrier: { type: 'string' }, tracking_number: { type: 'string' }, shipped_at: ref('Timestamp') }),
      description: 'The hard copies on their way, once staff hand them to a carrier; null before.',
    }),
    due_at: nullable(ref('Timestamp')),
    completed_at: nullable(ref('Timestamp')),
    cancelled_at: nullable(ref('Timestamp')),
    created_at: ref('Timestamp'),
    updated_at: ref('Timestamp'),
  }),
  ConvertedOrder: object({
    data: object({ id: ref('Id'), number: { type: 'string' }, status: { const: 'pending_payment' } }),
    provider_approval_url: { type: 'string', format: 'uri', description: 'Send the customer here to pay.' },
  }),
};

const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const checkoutId = { name: 'providerOrderId', in: 'path', required: true, schema: { type: 'string' } };
const providerParam = {
  name: 'provider',
  in: 'path',
  required: true,
  schema: { type: 'string', enum: ['sandbox', 'paypal'] },
  description: 'The payment provider this deployment is configured with; any other answers 404.',
};
const redirect = {
  description:
    'Back to the redirect_url given at convert (or at booking), with `payment=paid` or `payment=cancelled` and the `order_id` or `booking_id` it was for.', headers: { Location: { schema: { type: 'string', format: 'uri' } } } };

export const orderPaths = {
  '/quotes/{id}/convert': {
    post: {
      operationId: 'convertQuote',
      tags: ['Orders'],
      summary: 'Convert a quote to an order and create its checkout',
      description: 'Exactly one order per quote, even under concurrent calls. If the payment provider fails, nothing is created (503).',
      parameters: [idParam('Quote')],
      requestBody: {
        required: false,
        content: { 'application/json': { schema: { type: 'object', properties: { redirect_url: { type: 'string', format: 'uri', maxLength: 2048 } } } } },
      },
      responses: {
        201: json(ref('ConvertedOrder'), 'The order, waiting for payment at `provider_approval_url`.'),
        ...authErrors,
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
  '/orders': {
    get: {
      operationId: 'listOrders',
      tags: ['Orders'],
      summary: 'List orders, newest first',
      parameters: [{ name: 'status', in: 'query', schema: { enum: ORDER_STATUSES } }, ...pageParameters],
      responses: { 200: json(listOf(ref('Order')), 'One page of orders.'), ...authErrors, 422: responseRef('ValidationFailed') },
    },
  },
  '/orders/{id}': {
    get: {
      operationId: 'getOrder',
      tags: ['Orders'],
      summary: 'Order detail (poll for progress)',
      parameters: [idParam('Order')],
      responses: { 200: json(dataOf(ref('Order')), 'The order.'), ...authErrors, 404: responseRef('NotFound') },
    },
  },
  '/orders/{id}/cancel': {
    post: {
      operationId: 'cancelOrder',
      tags: ['Orders'],
      summary: 'Cancel an order waiting for payment or on hold',
      description:
        "A paid order on hold is refunded through the payment provider: `payment.refunded_at` is set once the provider confirms (at once, or by the background reconciliation if the provider is down). While a payment is being captured the cancel answers 422 with `errors.status` [\"The payment is being processed.\"]: poll the order; it ends paid or, if the capture is declined, cancellable again.",
      parameters: [idParam('Order')],
      responses: {
        200: json(dataOf(ref('Order')), 'The cancelled order.'),
        ...authErrors,
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
  '/payments/{provider}/return': {
    get: {
      operationId: 'paymentReturn',
      tags: ['Payments'],
      summary: "Where the provider sends the payer back: captures the payment once, whichever of this, the webhook or another tab comes first",
      security: [],
      parameters: [providerParam, { name: 'token', in: 'query', required: true, schema: { type: 'string' }, description: "The provider's checkout id (PayPal order id)." }],
      responses: {
        200: html('Payment received, being processed, or declined (no redirect_url was given).'),
        303: {
          ...redirect,
          description:
            'Back to redirect_url with `payment=paid`, `payment=declined`, or `payment=processing` when the capture is still under way or its answer was lost (it is completed or reconciled in the background; poll the order).',
        },
        404: responseRef('NotFound'),
      },
    },
  },
  '/payments/{provider}/cancel': {
    get: {
      operationId: 'paymentCancel',
      tags: ['Payments'],
      summary: 'Where the provider sends a payer who gave up',
      security: [],
      parameters: [providerParam, { name: 'token', in: 'query', required: true, schema: { type: 'string' } }],
      responses: { 200: html('Payment cancelled.'), 303: redirect, 404: responseRef('NotFound') },
    },
  },
  '/payments/{provider}/webhook': {
    post: {
      operationId: 'paymentWebhook',
      tags: ['Payments'],
      summary: "The provider's webhook events: verified with the provider, recorded, then processed; a processed event id sent again is a duplicate",
      security: [],
      parameters: [providerParam],
      responses: {
        200: json(object({ status: { enum: ['handled', 'duplicate', 'ignored'] } }), 'Acknowledged.'),
        400: json(ref('Error'), 'Not an event signed by the provider for this webhook: `{"message":"Invalid webhook signature."}`.'),
        404: responseRef('NotFound'),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
  '/sandbox/checkout/{providerOrderId}': {
    get: {
      operationId: 'sandboxCheckoutPage',
      tags: ['Sandbox'],
      summary: 'Sandbox only: the hosted test checkout page',
      security: [],
      parameters: [checkoutId],
      responses: { 200: html('A page with Pay and Cancel buttons (no JavaScript needed).'), 404: responseRef('NotFound') },
    },
  },
  '/sandbox/checkout/{providerOrderId}/pay': {
    post: {
      operationId: 'sandboxCheckoutPay',
      tags: ['Sandbox'],
      summary: 'Sandbox only: pay the checkout',
      security: [],
      parameters: [checkoutId],
      responses: { 200: html('Payment received (no redirect_url was given).'), 303: redirect, 404: responseRef('NotFound'), 409: html('The checkout can no longer be paid.') },
    },
  },
  '/sandbox/checkout/{providerOrderId}/cancel': {
    post: {
      operationId: 'sandboxCheckoutCancel',
      tags: ['Sandbox'],
      summary: 'Sandbox only: leave the checkout without paying',
      security: [],
      parameters: [checkoutId],
      responses: { 200: html('Payment cancelled (no redirect_url was given).'), 303: redirect, 404: responseRef('NotFound') },
    },
  },
};
