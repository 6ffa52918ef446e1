import { listInvoicesCommand } from '../../../domain/billing/invoice.commands';
import { dataOf, described, json, listOf, nullable, object, pageDocs, ref, responseRef } from './components';
import { examplePage } from './examples';
import { queryParameters } from './request-schema';

const invoiceFields = {
  id: described(ref('Id'), 'The invoice id.'),
  number: {
    type: 'string',
    description: 'The invoice number, `INV-<YYYYMM>-<4 digits>`.',
    examples: ['INV-202612-0001'],
  },
  status: {
    enum: ['open', 'paid', 'void'],
    description:
      '`open`: waiting for payment; `paid`: payments reached the total; `void`: withdrawn by the operator, its work invoiced again on a later invoice.',
  },
  issued_at: described(ref('Timestamp'), 'When it was issued (UTC).'),
  due_at: described(ref('Timestamp'), "When it is due: the issue date plus the account's terms (15 or 30 days)."),
  lines: {
    type: 'array',
    description: 'One line per order or booking placed on account; never changed once issued.',
    items: object({
      kind: { enum: ['order', 'booking'], description: 'What the line bills.' },
      id: described(ref('Id'), 'The order or booking id.'),
      number: { type: 'string', description: 'The order or booking number.' },
      reference: nullable({ type: 'string' }, 'Your reference (the matter), as given; null when none.'),
      purchase_order: nullable({ type: 'string' }, 'Your purchase order, as given on the quote; null when none.'),
      description: { type: 'string', description: 'What was done.' },
      amount_cents: described(ref('Cents'), 'What the line bills, in cents.'),
    }),
  },
  credits: {
    type: 'array',
    description:
      'Refunds of work on account made since the last invoice, and credit carried from it, taken off the total.',
    items: object({
      number: { type: 'string', description: 'The order or booking number refunded (`-` for a carried credit).' },
      description: { type: 'string', description: 'What the credit is for.' },
      amount_cents: described(ref('Cents'), 'Taken off the total, in cents.'),
    }),
  },
  total_cents: described(ref('Cents'), 'The lines less the credits, in cents; never below 0.'),
  paid_cents: described(ref('Cents'), 'What was paid of it so far, in cents.'),
  currency: described(ref('Currency'), 'Currency of every amount of this invoice.'),
  paid_at: nullable(ref('Timestamp'), 'When payments reached the total (UTC); null until then.'),
};

export const invoiceSchemas = {
  Invoice: object(invoiceFields),
  InvoiceWithLink: object({
    ...invoiceFields,
    download_url: {
      type: 'string',
      format: 'uri',
      description: 'The invoice as a PDF: a signed link, valid for 5 minutes; read the invoice again for a fresh one.',
    },
  }),
};

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
};
