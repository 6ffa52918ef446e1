import type { Invoice } from './invoice.entity';

/**
 * What happened to an invoice that other areas act on, raised in the transaction that did it (docs/architecture.md
 * "Domain events"): issued by a close, or found overdue for the first time (D31). The invoice comes with its account
 * loaded.
 */
export interface InvoiceEvent {
  kind: 'issued' | 'overdue';
  invoice: Invoice;
}
