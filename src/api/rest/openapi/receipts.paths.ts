import { ref, responseRef } from './components';

const paymentId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: ref('Id'),
  description: 'The payment id, as it appears in `payment.receipt_url`.',
};

/** The query of a signed PDF link (a receipt's, an invoice's). */
export const signedQuery = [
  {
    name: 'expires',
    in: 'query',
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' },
    description: 'When the link stops working, in Unix seconds (UTC).',
  },
  {
    name: 'signature',
    in: 'query',
    required: true,
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    description: 'HMAC-SHA256 of the path and query, in hex.',
  },
];

/** Receipts of card payments: the stable link an order's or booking's `payment.receipt_url` names, and its PDF. */
export const receiptPaths = {
  '/payments/{id}/receipt': {
    get: {
      operationId: 'getReceipt',
      tags: ['Orders'],
      summary: "Open a payment's receipt",
      description:
        "What `payment.receipt_url` (and `payment.overtime.receipt_url`) of an order or a booking paid by card points to. The link never changes, so a polled order's or booking's ETag holds; with your key it answers a redirect to the receipt's PDF, signed for 5 minutes. Another account's payment, an unpaid one and work placed on account (its invoice is the document) are 404.",
      parameters: [paymentId],
      responses: {
        302: {
          description: 'To the receipt as a PDF, through a signed link valid 5 minutes.',
          headers: {
            Location: { description: 'The signed link of the PDF.', schema: { type: 'string', format: 'uri' } },
            'Cache-Control': {
              description: '`private, no-store`: each request gets a fresh link.',
              schema: { type: 'string' },
            },
          },
        },
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
      },
    },
  },
  '/payments/{id}/receipt/pdf': {
    get: {
      operationId: 'downloadReceipt',
      tags: ['Orders'],
      summary: 'Download a receipt through its signed link',
      description:
        'Where `GET /payments/{id}/receipt` redirects: the receipt (what was paid for, your reference and purchase order, the amount, the payment reference, refunds since). No key: the signature is the permission, for 5 minutes. An altered or expired link is 404; open the receipt link again for a fresh one.',
      security: [],
      parameters: [paymentId, ...signedQuery],
      responses: {
        200: {
          description: 'The receipt, as an attachment.',
          content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
        },
        404: responseRef('NotFound'),
      },
    },
  },
};
