import type { OutgoingEmail } from '../../providers/mail/mailer';
import type { Account } from '../identity/account.entity';
import { longDate } from '../../documents/certificate-pdf';
import { formatMoney } from '../shared/money';
import type { Invoice } from './invoice.entity';

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
