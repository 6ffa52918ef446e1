import { labelledRows, letterheadSheet, longDate, WIDTH } from './certificate-pdf';
import { rowTable, totalRows } from './pdf-table';

/** What a receipt states, as printed (D31): the domain gathers these facts; this file only draws them. */
export interface ReceiptContent {
  company: { name: string; address: string; supportEmail: string };
  billTo: { name: string; email: string };
  /** "Order LT-2611-AB12CD" or "Booking LT-INT-2611-AB12CD". */
  paidFor: string;
  reference: string | null;
  purchaseOrder: string | null;
  paidAt: Date;
  /** The provider's capture id: what the payer finds on their own statement. */
  paymentReference: string;
  provider: string;
  lines: { description: string; amount: string }[];
  refunds: { date: Date; amount: string }[];
  totals: { paid: string; refunded: string; kept: string };
}

const COLUMNS = [
  { title: 'Description', width: WIDTH - 100 },
  { title: 'Amount', width: 100 },
];

/**
 * A receipt for money received by card, drawn like the invoice: the operator's letterhead, what was paid for with the
 * client's matter and purchase order, the lines paid, any money given back since, and what the payment came to.
 */
export async function receiptPdf(content: ReceiptContent): Promise<Uint8Array> {
  const sheet = await letterheadSheet(`Receipt for ${content.paidFor}`, content.company, 'RECEIPT', allText(content));
  labelledRows(sheet, [
    ['Received from', `${content.billTo.name} (${content.billTo.email})`],
    ['For', content.paidFor],
    ...(content.reference ? [['Matter', content.reference] as [string, string]] : []),
    ...(content.purchaseOrder ? [['Purchase order', content.purchaseOrder] as [string, string]] : []),
    ['Date paid', longDate(content.paidAt)],
    ['Paid through', content.provider],
    ['Payment reference', content.paymentReference],
  ]);
  sheet.gap(14);
  rowTable(sheet, COLUMNS, [
    ...content.lines.map((line) => [line.description, line.amount]),
    ...content.refunds.map((refund) => [`Refunded on ${longDate(refund.date)}`, `-${refund.amount}`]),
  ]);
  totalRows(sheet, [
    ['Paid', content.totals.paid, true],
    ...(content.refunds.length
      ? [
          ['Refunded', `-${content.totals.refunded}`, false] as [string, string, boolean],
          ['Kept', content.totals.kept, true] as [string, string, boolean],
        ]
      : []),
  ]);
  sheet.paragraph(
    `Thank you. This receipt confirms a payment received; nothing is owed on it. Questions: ${content.company.supportEmail}.`,
    { size: 10.5 },
  );
  sheet.footers(`Receipt for ${content.paidFor}`, content.paymentReference);
  return sheet.doc.save({ useObjectStreams: false });
}

function allText(content: ReceiptContent): string {
  return [
    content.billTo.name,
    content.reference ?? '',
    content.purchaseOrder ?? '',
    ...content.lines.map((line) => line.description),
  ].join('\n');
}
