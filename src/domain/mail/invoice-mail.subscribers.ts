import type { Mailer } from '../../providers/mail/mailer';
import type { InvoiceEvent } from '../billing/invoice.events';
import type { Subscriber } from '../shared/event-hub';
import { invoiceIssuedEmail, invoiceOverdueEmail } from './invoice-mail';
import type { PageLinks } from './page-links';

/** The account hears of each invoice issued, and once of each invoice overdue (D31). */
export function tellAccountOfInvoice(deps: { mailer: Mailer; pages: PageLinks }): Subscriber<InvoiceEvent> {
  return (em, { kind, invoice }) =>
    deps.mailer.send(
      em,
      kind === 'issued'
        ? invoiceIssuedEmail(invoice.account, invoice, deps.pages.portalInvoices())
        : invoiceOverdueEmail(invoice.account, invoice),
    );
}
