import { z } from 'zod';
import { id, integer, oneOf, text } from '../shared/command-fields';
import { pageFields } from '../shared/pagination';
import { InvoiceStatus } from './invoice.entity';

/** `GET /invoices` and `invoices`: newest first, of one status when asked (D31). */
export const listInvoicesCommand = z.object({ status: oneOf(Object.values(InvoiceStatus)), ...pageFields });
export type ListInvoices = z.output<typeof listInvoicesCommand>;

/** Staff's `staffInvoices`: of one account, of one status, or only those overdue. */
export const staffInvoicesCommand = z.object({
  accountId: id(),
  status: oneOf(Object.values(InvoiceStatus)),
  overdue: z.boolean().optional(),
  ...pageFields,
});
export type StaffInvoices = z.output<typeof staffInvoicesCommand>;

/** `recordInvoicePayment`: money the account paid against an invoice, by bank transfer or cheque (D31). */
export const recordInvoicePaymentCommand = z.object({
  amountCents: integer({ required: true, min: 1, max: 1_000_000_000 }),
  method: text({ required: true, max: 50 }),
  reference: text({ max: 255, printed: true }),
});
export type RecordInvoicePayment = z.output<typeof recordInvoicePaymentCommand>;

/** `voidInvoice`: why an invoice issued in error is withdrawn. */
export const voidInvoiceCommand = z.object({ reason: text({ required: true, max: 500 }) });
export type VoidInvoice = z.output<typeof voidInvoiceCommand>;
