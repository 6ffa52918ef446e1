import { z } from 'zod';
import { InvoiceStatus } from '../../../domain/billing/invoice.entity';
import { Cents, Currency, Id, Timestamp, Url } from './base.response';
import { component, documented } from './response-registry';

const invoiceFields = {
  id: Id.describe('The invoice id.'),
  number: documented(z.string(), 'The invoice number, `INV-<YYYYMM>-<4 digits>`.', ['INV-202612-0001']),
  status: documented(
    z.enum(InvoiceStatus),
    '`open`: waiting for payment; `paid`: payments reached the total; `void`: withdrawn by the operator, its work invoiced again on a later invoice.',
  ),
  issued_at: Timestamp.describe('When it was issued (UTC).'),
  due_at: Timestamp.describe("When it is due: the issue date plus the account's terms (15 or 30 days)."),
  lines: documented(
    z.array(
      z.strictObject({
        kind: documented(z.enum(['order', 'booking']), 'What the line bills.'),
        id: Id.describe('The order or booking id.'),
        number: documented(z.string(), 'The order or booking number.'),
        reference: documented(z.string().nullable(), 'Your reference (the matter), as given; null when none.'),
        purchase_order: documented(
          z.string().nullable(),
          'Your purchase order, as given on the quote; null when none.',
        ),
        description: documented(z.string(), 'What was done.'),
        amount_cents: Cents.describe('What the line bills, in cents.'),
      }),
    ),
    'One line per order or booking placed on account; never changed once issued.',
  ),
  credits: documented(
    z.array(
      z.strictObject({
        number: documented(z.string(), 'The order or booking number refunded (`-` for a carried credit).'),
        description: documented(z.string(), 'What the credit is for.'),
        amount_cents: Cents.describe('Taken off the total, in cents.'),
      }),
    ),
    'Refunds of work on account made since the last invoice, and credit carried from it, taken off the total.',
  ),
  total_cents: Cents.describe('The lines less the credits, in cents; never below 0.'),
  paid_cents: Cents.describe('What was paid of it so far, in cents.'),
  currency: Currency.describe('Currency of every amount of this invoice.'),
  paid_at: documented(Timestamp.nullable(), 'When payments reached the total (UTC); null until then.'),
};

/** An invoice as `GET /invoices` lists it (D31). */
export const Invoice = component('Invoice', z.strictObject(invoiceFields));

/** An invoice as `GET /invoices/{id}` answers it: with its PDF's link. */
export const InvoiceWithLink = component(
  'InvoiceWithLink',
  z.strictObject({
    ...invoiceFields,
    download_url: documented(
      Url,
      'The invoice as a PDF: a signed link, valid for 5 minutes; read the invoice again for a fresh one.',
    ),
  }),
);

export type InvoiceJson = z.output<typeof Invoice> | z.output<typeof InvoiceWithLink>;
