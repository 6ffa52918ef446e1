import { listOrdersCommand } from '../../../domain/orders/order.commands';
import { requestRevisionCommand } from '../../../domain/orders/revision.commands';
import { checkoutReturnCommand } from '../../../domain/payments/payment.commands';
import {
  created,
  dataOf,
  described,
  json,
  listOf,
  object,
  pageDocs,
  updatedSinceParameter,
  ref,
  responseRef,
} from './components';
import {
  exampleCheckoutPage,
  exampleOnAccountPage,
  exampleConvertRequest,
  exampleConverted,
  exampleOrderCancelled,
  exampleOrderCompleted,
  exampleOrderProcessing,
  exampleOrderRenewed,
  exampleOrderRevision,
  exampleRevisionRequest,
  examplePage,
  examplePaymentPage,
  exampleWebhookAck,
} from './examples';
import { queryParameters, requestBodySchema } from './request-schema';

const idParam = (what: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  schema: ref('Id'),
  description: `${what} id, as answered when it was made.`,
});
const authErrors = { 401: responseRef('Unauthenticated'), 403: responseRef('Forbidden') };
const { description: updatedSinceText, example: updatedSinceExample } = updatedSinceParameter('orders');
const updatedSinceDocs = { description: updatedSinceText, example: updatedSinceExample };

/** The order's answers declared elsewhere (src/api/rest/responses/order.response.ts) are components already. */
export const orderSchemas = {
  ConvertedOrder: object({
    data: described(
      object({
        id: described(ref('Id'), "The new order's id: poll `GET /orders/{id}`."),
        number: { type: 'string', description: 'The order number.', examples: ['LT-2611-AB12CD'] },
        status: { const: 'pending_payment', description: 'A new order always waits for payment.' },
      }),
      'The new order.',
    ),
    provider_approval_url: {
      type: 'string',
      format: 'uri',
      description:
        "Send the customer here to pay (the same as the order's `payment.approval_url`). For an account on terms it opens this service's \"Place order on account\" page instead: its button places the order on account (no payment now; the order moves to `processing` as if paid), or, past the account's credit limit or with an invoice overdue, the page says so and offers the card checkout.",
    },
  }),
  RenewedOrder: object({
    data: described(ref('Order'), 'The order, with its new checkout in `payment`.'),
    provider_approval_url: {
      type: 'string',
      format: 'uri',
      description: "Send the customer here to pay (the same as the order's `payment.approval_url`).",
    },
  }),
};

/** An optional body naming where the payer returns after a checkout (convert, and a checkout renewal). */
const redirectBody = (description: string, redirectUrl: string) => ({
  required: false,
  description,
  content: {
    'application/json': {
      schema: requestBodySchema(checkoutReturnCommand, { redirect_url: redirectUrl }),
      example: exampleConvertRequest,
    },
  },
});

/** The optional body of a checkout renewal (`POST /orders/{id}/checkout` and its booking twin). */
export const renewalBody = redirectBody(
  'Optional: where to send the payer back; without it, where the old checkout sent them.',
  'Absolute http(s) URL the payer is sent back to after the checkout, with `payment=paid|declined|processing|cancelled` and `order_id` or `booking_id` added.',
);

/** What a renewal does, said once for orders and bookings. */
export const RENEWAL =
  'A fresh checkout for work waiting for payment whose link was lost or expired: the old checkout is voided (its page and its return no longer take money), and a payment racing the renewal is taken at most once. ' +
  'While a payment is being captured the renewal answers 422 with `errors.status` ["The payment is being processed."]; anything not waiting for payment answers 422 under `status`.';

const html = (description: string, example = examplePaymentPage) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' }, example } },
});
const checkoutId = {
  name: 'providerOrderId',
  in: 'path',
  required: true,
  schema: { type: 'string', maxLength: 64 },
  description: 'The sandbox checkout id, the last part of `payment.approval_url`.',
};
const onAccountToken = {
  name: 'token',
  in: 'path',
  required: true,
  schema: { type: 'string', maxLength: 64 },
  description: 'The last part of `provider_approval_url` for an account on terms.',
};
const providerParam = {
  name: 'provider',
  in: 'path',
  required: true,
  schema: { type: 'string', enum: ['sandbox', 'paypal'] },
  description: 'The payment provider this deployment is configured with; any other answers 404.',
};
const redirect = {
  description:
    'Back to the redirect_url given at convert (or at booking), with `payment=paid` or `payment=cancelled` and the `order_id` or `booking_id` it was for.',
  headers: {
    Location: {
      description: 'The redirect_url with `payment` and `order_id` or `booking_id` added to its query.',
      schema: { type: 'string', format: 'uri' },
    },
  },
};

export const orderPaths = {
  '/quotes/{id}/convert': {
    post: {
      operationId: 'convertQuote',
      tags: ['Orders'],
      summary: 'Convert a quote to an order and create its checkout',
      description:
        "Makes the order (`pending_payment`) from a `priced` quote at the quote's prices, and its checkout at the payment provider. Exactly one order per quote, even under concurrent calls: " +
        'a converted or expired quote answers 422 under `quote`. If the payment provider fails, nothing is created (503). Send the customer to `provider_approval_url`; once paid the order moves to `processing`.',
      parameters: [idParam('Quote')],
      requestBody: redirectBody(
        'Optional: where to send the payer back.',
        'Absolute http(s) URL the payer is sent back to after the checkout, with `payment=paid|declined|processing|cancelled` and `order_id` added. Without it the checkout ends on a page of the service.',
      ),
      responses: {
        201: created(
          ref('ConvertedOrder'),
          'The order, waiting for payment at `provider_approval_url`.',
          exampleConverted,
          '/orders/{id}',
        ),
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
      description:
        "The account's orders, newest first, a page at a time, optionally of one status; with `updated_since`, the orders changed since then, oldest change first (poll for changes in one request).",
      parameters: queryParameters(listOrdersCommand, {
        status: 'Only orders in this status; an unknown value is 422.',
        updated_since: updatedSinceDocs,
        ...pageDocs,
      }),
      responses: {
        200: json(listOf(ref('Order')), 'One page of orders.', examplePage('/orders', exampleOrderProcessing)),
        ...authErrors,
        422: responseRef('ValidationFailed'),
      },
    },
  },
  '/orders/{id}': {
    get: {
      operationId: 'getOrder',
      tags: ['Orders'],
      summary: 'Order detail (poll for progress)',
      description:
        'One order with its payment, due time and files. Poll it (with `If-None-Match`, answered 304 while nothing changed) to follow the status; download links are fresh on every full answer.',
      parameters: [idParam('Order')],
      responses: {
        200: json(dataOf(ref('Order'), 'The order.'), 'The order.', { data: exampleOrderCompleted }),
        ...authErrors,
        404: responseRef('NotFound'),
      },
    },
  },
  '/orders/{id}/cancel': {
    post: {
      operationId: 'cancelOrder',
      tags: ['Orders'],
      summary: 'Cancel an order waiting for payment or on hold',
      description:
        'Allowed from `pending_payment` (the checkout is withdrawn) and `on_hold`; any other status answers 422 under `status`. ' +
        'A paid order on hold is refunded through the payment provider, for what is left of its payment when part was refunded at the provider already: `payment.refunded_at` is set once the provider confirms (at once, or by the background reconciliation if the provider is down). While a payment is being captured the cancel answers 422 with `errors.status` ["The payment is being processed."]: poll the order; it ends paid or, if the capture is declined, cancellable again.',
      parameters: [idParam('Order')],
      responses: {
        200: json(dataOf(ref('Order'), 'The order, now cancelled.'), 'The cancelled order.', {
          data: exampleOrderCancelled,
        }),
        ...authErrors,
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
  '/orders/{id}/documents': {
    delete: {
      operationId: 'deleteOrderDocuments',
      tags: ['Orders'],
      summary: "Delete a finished order's documents now",
      description:
        "Deletes the stored bytes of a completed or cancelled order's sources, translations (stamped and unstamped copies) and reference files, without waiting for the account's retention period. " +
        'Their records stay with `purged_at`; their links answer 410 from this moment; the certificate of accuracy and the invoice are kept, and `/verify/{code}` still verifies a copy by its fingerprint. ' +
        'A file another order still needs (an open order, one on legal hold, or one whose own documents are kept) is kept for it. Repeating the request is harmless. ' +
        'API keys and admin members. Refused with 422: an order neither completed nor cancelled (`status`), an order under a legal hold (`legal_hold`). ' +
        'If the file storage fails part-way the answer is 503: the deletion was recorded, no file is served any more, and it completes on its own (or when the request is repeated).',
      parameters: [idParam('Order')],
      responses: {
        204: { description: "Deleted: the documents' bytes are gone and each file is recorded with `purged_at`." },
        ...authErrors,
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
  '/orders/{id}/revisions': {
    post: {
      operationId: 'requestRevision',
      tags: ['Orders'],
      summary: 'Ask for a free revision of a completed order',
      description:
        'Until `revision_window_closes_at` (30 days after the first delivery), a free revision: a new order linked by `revision_of` (the original stays `completed` and lists it under `revisions`), `total_cents` 0 and nothing to pay (`payment.provider` `none`). A completed revision may itself be revised, within the same window: a revision never restarts the 30 days. ' +
        'A certified revision starts `in_review` with copies of the delivered translations as drafts: staff review or replace them and complete it with a new certificate, which supersedes the original one. A standard revision starts `processing` and is translated again. Poll it as any order. ' +
        'Refused with 422: an order not completed (`status`, cancelled ones included), after the window (`completed_at`), while a revision of the order is still open or once a completed revision replaces it (`revisions`: one at a time, of the latest version; two requests at once make one revision), a reason missing or over 2,000 characters (`reason`), a file that is not one you uploaded (`file_ids`).',
      parameters: [idParam('Order')],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: requestBodySchema(requestRevisionCommand, {
              reason: 'What should be revised; at most 2,000 characters.',
              file_ids: 'Optional reference files you uploaded (`POST /files`), shown to the translator; at most 20.',
            }),
            example: exampleRevisionRequest,
          },
        },
      },
      responses: {
        201: created(
          dataOf(ref('Order'), 'The revision.'),
          'The revision, a new order.',
          { data: exampleOrderRevision },
          '/orders/{id}',
        ),
        ...authErrors,
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
      },
    },
  },
  '/orders/{id}/checkout': {
    post: {
      operationId: 'renewOrderCheckout',
      tags: ['Orders'],
      summary: 'Issue a new checkout for an order waiting for payment',
      description: `${RENEWAL} If the payment provider fails, nothing changes (503).`,
      parameters: [idParam('Order')],
      requestBody: renewalBody,
      responses: {
        200: json(ref('RenewedOrder'), 'The order with its new checkout.', {
          data: exampleOrderRenewed,
          provider_approval_url: exampleOrderRenewed.payment.approval_url,
        }),
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
      summary: 'Where the provider sends the payer back',
      description:
        "Not called by integrators: the payment provider sends the payer's browser here after approval. It captures the payment once, whichever of this, the webhook or another tab comes first, " +
        'then sends the payer to the redirect_url or shows a page.',
      security: [],
      parameters: [
        providerParam,
        {
          name: 'token',
          in: 'query',
          required: true,
          // A provider's order id is short (PayPal's 17 characters, the sandbox's 40); a longer one names nothing.
          schema: { type: 'string', maxLength: 64 },
          description: "The provider's checkout id (PayPal order id).",
        },
      ],
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
      description:
        'Not called by integrators: the payer left the checkout without paying. The order or booking stays waiting for payment and its link keeps working.',
      security: [],
      parameters: [
        providerParam,
        {
          name: 'token',
          in: 'query',
          required: true,
          // A provider's order id is short (PayPal's 17 characters, the sandbox's 40); a longer one names nothing.
          schema: { type: 'string', maxLength: 64 },
          description: "The provider's checkout id (PayPal order id).",
        },
      ],
      responses: { 200: html('Payment cancelled.'), 303: redirect, 404: responseRef('NotFound') },
    },
  },
  '/payments/{provider}/webhook': {
    post: {
      operationId: 'paymentWebhook',
      tags: ['Payments'],
      summary: "The payment provider's webhook",
      description:
        "Not called by integrators: the provider's events (approved, captured, refunded or reversed payments) are verified with the provider, recorded, then processed; a processed event id sent again is a duplicate.",
      security: [],
      requestBody: {
        required: true,
        description:
          "The provider's event, as the provider sends it (PayPal: a webhook event with its transmission headers).",
        content: {
          'application/json': {
            schema: { type: 'object', description: "The provider's event." },
            example: {
              id: 'WH-2WR32451HC0233532-67976317FL4543714',
              event_type: 'PAYMENT.CAPTURE.COMPLETED',
              resource: { id: '8MC585209K746392H', status: 'COMPLETED' },
            },
          },
        },
      },
      parameters: [providerParam],
      responses: {
        200: json(
          object({
            status: {
              enum: ['handled', 'duplicate', 'ignored'],
              description:
                '`handled`: processed now. `duplicate`: this event id was already processed. `ignored`: an event type the service does not act on.',
            },
          }),
          'Acknowledged.',
          exampleWebhookAck,
        ),
        400: json(
          ref('Error'),
          'Not an event signed by the provider for this webhook: `{"message":"Invalid webhook signature."}`.',
        ),
        404: responseRef('NotFound'),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
  '/on-account/{token}': {
    get: {
      operationId: 'onAccountPage',
      tags: ['Invoices'],
      summary: 'The "Place order on account" page',
      description:
        'What `provider_approval_url` (and `payment.approval_url`) opens for an account on terms, for an order or a booking: its lines and total, a "Place order on account" button, and "Pay by card instead". Past the account\'s credit limit, or with one of its invoices overdue, the page says why and offers only the card. No key: the unguessable token is the permission.',
      security: [],
      parameters: [onAccountToken],
      responses: {
        200: html('A page with its buttons (no JavaScript needed).', exampleOnAccountPage),
        404: responseRef('NotFound'),
      },
    },
  },
  '/on-account/{token}/place': {
    post: {
      operationId: 'onAccountPlace',
      tags: ['Invoices'],
      summary: 'Place the work on account',
      description:
        "The page's \"Place order on account\" button (a form this service's own page sends; one another site's page sends is 403): the order moves to `processing` (the booking to `confirmed`) as if paid, and goes on the next monthly invoice; then the person is returned to the `redirect_url`, as a checkout returns them.",
      security: [],
      parameters: [onAccountToken],
      responses: {
        200: html('Placed (no redirect_url was given).'),
        303: redirect,
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
        422: html(
          'Refused: the page again, saying why (the credit limit, an overdue invoice, the work no longer open).',
        ),
      },
    },
  },
  '/on-account/{token}/card': {
    post: {
      operationId: 'onAccountPayByCard',
      tags: ['Invoices'],
      summary: 'Pay by card instead',
      description:
        "The page's \"Pay by card instead\" button (a form this service's own page sends; one another site's page sends is 403): the work's payment is renewed at the card provider, and the person is sent to its checkout; paying there moves the work on as any card payment does.",
      security: [],
      parameters: [onAccountToken],
      responses: {
        303: {
          description: "To the card provider's checkout.",
          headers: { Location: { description: "The checkout's address.", schema: { type: 'string', format: 'uri' } } },
        },
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
        422: html('Refused: the page again, saying why (the work no longer open).'),
      },
    },
  },
  '/sandbox/checkout/{providerOrderId}': {
    get: {
      operationId: 'sandboxCheckoutPage',
      tags: ['Sandbox'],
      summary: 'Sandbox only: the hosted test checkout page',
      description:
        "What `payment.approval_url` opens in the sandbox: the order's or booking's lines and total with Pay and Cancel buttons, standing in for the real provider's page.",
      security: [],
      parameters: [checkoutId],
      responses: {
        200: html('A page with Pay and Cancel buttons (no JavaScript needed).', exampleCheckoutPage),
        404: responseRef('NotFound'),
      },
    },
  },
  '/sandbox/checkout/{providerOrderId}/pay': {
    post: {
      operationId: 'sandboxCheckoutPay',
      tags: ['Sandbox'],
      summary: 'Sandbox only: pay the checkout',
      description:
        'The Pay button: captures the test payment (the order moves to `processing`, the booking to `confirmed`), then returns the payer as the real provider would.',
      security: [],
      parameters: [checkoutId],
      responses: {
        200: html('Payment received (no redirect_url was given).'),
        303: redirect,
        404: responseRef('NotFound'),
        409: html('The checkout can no longer be paid.'),
      },
    },
  },
  '/sandbox/checkout/{providerOrderId}/cancel': {
    post: {
      operationId: 'sandboxCheckoutCancel',
      tags: ['Sandbox'],
      summary: 'Sandbox only: leave the checkout without paying',
      description:
        'The Cancel button: nothing is paid and nothing changes; the payer is returned as the real provider would.',
      security: [],
      parameters: [checkoutId],
      responses: {
        200: html('Payment cancelled (no redirect_url was given).'),
        303: redirect,
        404: responseRef('NotFound'),
      },
    },
  },
};
