import type { OutgoingEmail } from '../../providers/mail/mailer';
import type { Account } from '../identity/account.entity';
import { longDate } from '../../documents/certificate-pdf';
import { formatMoney } from '../shared/money';
import { InvoiceStatus, type Invoice } from '../billing/invoice.entity';

/** D31: an invoice passed its due date unpaid; nothing more is placed on account until it is paid. */
export function invoiceOverdueEmail(account: Account, invoice: Invoice): OutgoingEmail {
  const due = formatMoney(invoice.totalCents - invoice.paidCents, invoice.currency);
  return {
    kind: 'invoice_overdue',
    to: account.email,
    subject: `Invoice ${invoice.number} is overdue`,
    text: [
      `Hello ${account.name},`,
      '',
      `Invoice ${invoice.number} was due on ${longDate(invoice.dueAt)} and ${due} of it is still open.`,
      'Until it is paid, new orders cannot be placed on account: they can still be paid by card at the checkout.',
      '',
      'If you have paid already, reply to this e-mail with the payment reference and we will match it.',
    ].join('\n'),
  };
}

/**
 * D31: an invoice was issued to the account: its number, total and due date, and where its PDF is. A signed link
 * would be dead in 5 minutes, so the e-mail links to the portal's invoices page, which signs a fresh one (D30: e-mails
 * send a person to a page, not to the API). Plain text, so nothing in it is markup; the subject holds only what the
 * service wrote (number, amount, date), none of the client's text.
 */
export function invoiceIssuedEmail(account: Account, invoice: Invoice, invoicesPage: string): OutgoingEmail {
  const total = formatMoney(invoice.totalCents, invoice.currency);
  const open = invoice.status === InvoiceStatus.OPEN;
  return {
    kind: 'invoice_issued',
    to: account.email,
    subject: open
      ? `Invoice ${invoice.number}: ${total} due ${longDate(invoice.dueAt)}`
      : `Invoice ${invoice.number}: nothing to pay`,
    text: [
      `Hello ${account.name},`,
      '',
      `Invoice ${invoice.number} for your work on account was issued on ${longDate(invoice.issuedAt)}.`,
      `Total: ${total}`,
      open ? `Due date: ${longDate(invoice.dueAt)}` : 'Nothing is due on it: its credits cover its lines.',
      '',
      `Download its PDF from the invoices page of the client portal: ${invoicesPage}`,
      ...(open ? ['', `Please pay by bank transfer or cheque, quoting ${invoice.number}.`] : []),
    ].join('\n'),
  };
}
