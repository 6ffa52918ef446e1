import type { InvoiceContent } from '../../documents/invoice-pdf';
import type { Account } from '../identity/account.entity';
import { BillingTerms } from '../identity/account.entity';
import { formatMoney } from '../shared/money';
import type { Invoice } from './invoice.entity';

const TERMS_NAMES: Record<BillingTerms, string> = {
  [BillingTerms.CHECKOUT]: 'Due on receipt',
  [BillingTerms.NET_15]: 'Net 15',
  [BillingTerms.NET_30]: 'Net 30',
};

/** The facts the invoice PDF prints (D31), amounts written as money. */
export function invoiceContent(
  invoice: Invoice,
  account: Account,
  company: { name: string; address: string; supportEmail: string },
): InvoiceContent {
  const money = (cents: number) => formatMoney(cents, invoice.currency);
  const linesCents = invoice.lines.reduce((sum, line) => sum + line.amountCents, 0);
  const creditCents = invoice.credits.reduce((sum, credit) => sum + credit.amountCents, 0);
  return {
    company,
    billTo: { name: account.name, email: account.email },
    number: invoice.number,
    issuedAt: invoice.issuedAt,
    dueAt: invoice.dueAt,
    terms: TERMS_NAMES[account.billingTerms],
    status: invoice.status.toUpperCase(),
    lines: invoice.lines.map((line) => ({
      number: line.number,
      reference: line.reference,
      purchaseOrder: line.purchaseOrder,
      description: line.description,
      amount: money(line.amountCents),
    })),
    credits: invoice.credits.map((credit) => ({ description: credit.description, amount: money(credit.amountCents) })),
    totals: {
      lines: money(linesCents),
      credits: money(creditCents),
      total: money(invoice.totalCents),
      paid: money(invoice.paidCents),
      due: money(invoice.totalCents - invoice.paidCents),
    },
  };
}
