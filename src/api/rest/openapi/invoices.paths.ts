import { listInvoicesCommand } from '../../../domain/billing/invoice.commands';
import { dataOf, json, listOf, pageDocs, ref, responseRef } from './components';
import { examplePage } from './examples';
import { signedQuery } from './receipts.paths';
import { queryParameters } from './request-schema';

const exampleInvoice = {
  id: '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98',
  number: 'INV-202612-0001',
  status: 'open',
  issued_at: '2026-12-01T00:05:00.000000Z',
  due_at: '2026-12-31T00:05:00.000000Z',
  lines: [
    {
      kind: 'order',
      id: '9b7c5d3e-1f2a-4b4c-8d6e-7f8a9b0c1d2e',
      number: 'LT-2611-AB12CD',
      reference: 'Matter 114 - Garcia asylum petition',
      purchase_order: 'PO-4471',
      description: 'Translation order LT-2611-AB12CD',
      amount_cents: 5960,
    },
  ],
  credits: [],
  total_cents: 5960,
  paid_cents: 0,
  currency: 'USD',
  paid_at: null,
};

const invoiceId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: ref('Id'),
  description: 'Invoice id.',
};

/** Accounts on terms: the monthly invoices of work placed on account. */
export const invoicePaths = {
  '/invoices': {
    get: {
      operationId: 'listInvoices',
      tags: ['Invoices'],
      summary: 'List your invoices, newest first',
      description:
        'Accounts on terms (orders placed on account) get an invoice at the start of each month for the work of the month before. Newest first, a page at a time; `status` filters. Empty for an account that pays at the checkout.',
      parameters: queryParameters(listInvoicesCommand, pageDocs),
      responses: {
        200: json(listOf(ref('Invoice')), 'One page of invoices.', examplePage('/invoices', exampleInvoice)),
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
        422: responseRef('ValidationFailed'),
      },
    },
  },
  '/invoices/{id}': {
    get: {
      operationId: 'getInvoice',
      tags: ['Invoices'],
      summary: 'Read an invoice, with a link to its PDF',
      description: "One of your invoices; another account's is 404.",
      parameters: [invoiceId],
      responses: {
        200: json(dataOf(ref('InvoiceWithLink'), 'The invoice.'), 'The invoice.', {
          data: {
            ...exampleInvoice,
            download_url:
              'https://api.example.com/api/v1/invoices/3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98/pdf?expires=1796083800&signature=0a1b',
          },
        }),
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
      },
    },
  },
  '/invoices/{id}/pdf': {
    get: {
      operationId: 'downloadInvoice',
      tags: ['Invoices'],
      summary: 'Download an invoice through its signed link',
      description:
        "The invoice's `download_url`: the invoice as a PDF (the company, the bill-to, the lines with their references and purchase orders, credits, the total, the due date and how to pay). No key: the signature is the permission, for 5 minutes. An altered or expired link is 404, as a receipt's; read the invoice again for a fresh one.",
      security: [],
      parameters: [invoiceId, ...signedQuery],
      responses: {
        200: {
          description: 'The invoice, as an attachment.',
          content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
        },
        404: responseRef('NotFound'),
      },
    },
  },
};
