import type { Invoice } from '../../../domain/billing/invoice.entity';
import { formatOptionalTimestamp, formatTimestamp } from '../../format';
import type { InvoiceJson } from '../responses/invoice.response';

/** An invoice as `GET /invoices` and `GET /invoices/{id}` answer it (D31); the one read also has its PDF link. */
export const serializeInvoice = (invoice: Invoice, downloadUrl?: string): InvoiceJson => ({
  id: invoice.id,
  number: invoice.number,
  status: invoice.status,
  issued_at: formatTimestamp(invoice.issuedAt),
  due_at: formatTimestamp(invoice.dueAt),
  lines: invoice.lines.map((line) => ({
    kind: line.kind,
    id: line.id,
    number: line.number,
    reference: line.reference,
    purchase_order: line.purchaseOrder,
    description: line.description,
    amount_cents: line.amountCents,
  })),
  credits: invoice.credits.map((credit) => ({
    number: credit.number,
    description: credit.description,
    amount_cents: credit.amountCents,
  })),
  total_cents: invoice.totalCents,
  paid_cents: invoice.paidCents,
  currency: invoice.currency,
  paid_at: formatOptionalTimestamp(invoice.paidAt),
  ...(downloadUrl === undefined ? {} : { download_url: downloadUrl }),
});
