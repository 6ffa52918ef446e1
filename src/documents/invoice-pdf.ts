import { labelledRows, letterheadSheet, longDate, type Sheet, WIDTH } from './certificate-pdf';
import { rowTable, totalRows } from './pdf-table';

/** What an invoice states, as printed (D31): the domain gathers these facts; this file only draws them. */
export interface InvoiceContent {
  company: { name: string; address: string; supportEmail: string };
  billTo: { name: string; email: string };
  number: string;
  issuedAt: Date;
  dueAt: Date;
  /** "Net 30". */
  terms: string;
  status: string;
  lines: {
    number: string;
    reference: string | null;
    purchaseOrder: string | null;
    description: string;
    amount: string;
  }[];
  credits: { description: string; amount: string }[];
  totals: { lines: string; credits: string; total: string; paid: string; due: string };
}

/**
 * The invoice as a firm's accounts payable expects one, drawn like the certificate: the operator's letterhead, the
 * invoice's particulars beside whom it bills, one line per order or booking with its matter and purchase order, the
 * credits, the totals, the due date and how to pay. Any script shows as written.
 */
export async function invoicePdf(content: InvoiceContent): Promise<Uint8Array> {
  const sheet = await letterheadSheet(`Invoice ${content.number}`, content.company, 'INVOICE', allText(content));
  particulars(sheet, content);
  lineTable(sheet, content);
  totals(sheet, content);
  howToPay(sheet, content);
  sheet.footers(`Invoice ${content.number}`, `Due ${longDate(content.dueAt)}`);
  return sheet.doc.save({ useObjectStreams: false });
}

function particulars(sheet: Sheet, content: InvoiceContent): void {
  labelledRows(sheet, [
    ['Invoice number', content.number],
    ['Bill to', `${content.billTo.name} (${content.billTo.email})`],
    ['Date of issue', longDate(content.issuedAt)],
    ['Terms', content.terms],
    ['Due date', longDate(content.dueAt)],
    ['Status', content.status],
  ]);
  sheet.gap(14);
}

/** The description gets the room: a booking's overtime names itself at length; an amount needs little. */
const COLUMNS = [
  { title: 'Order / booking', width: 108 },
  { title: 'Matter', width: 100 },
  { title: 'PO', width: 58 },
  { title: 'Description', width: WIDTH - 328 },
  { title: 'Amount', width: 62 },
];

/** One row per line, then the credits; the totals under them. */
function lineTable(sheet: Sheet, content: InvoiceContent): void {
  rowTable(sheet, COLUMNS, [
    ...content.lines.map((line) => [
      line.number,
      line.reference ?? '',
      line.purchaseOrder ?? '',
      line.description,
      line.amount,
    ]),
    ...content.credits.map((credit) => ['Credit', '', '', credit.description, `-${credit.amount}`]),
  ]);
}

function totals(sheet: Sheet, content: InvoiceContent): void {
  totalRows(sheet, [
    ['Work', content.totals.lines, false],
    ['Credits', `-${content.totals.credits}`, false],
    ['Total', content.totals.total, true],
    ['Paid', content.totals.paid, false],
    ['Amount due', content.totals.due, true],
  ]);
}

function howToPay(sheet: Sheet, content: InvoiceContent): void {
  sheet.need(70);
  sheet.paragraph('How to pay', { font: sheet.bold, size: 11.5 });
  sheet.paragraph(
    `Please pay the amount due by ${longDate(content.dueAt)} by bank transfer or cheque, quoting invoice ${content.number}. ` +
      `Questions about this invoice: ${content.company.supportEmail}. While an invoice is overdue, new orders cannot be placed on account.`,
    { size: 10.5 },
  );
}

function allText(content: InvoiceContent): string {
  return [
    content.billTo.name,
    ...content.lines.flatMap((line) => [line.reference ?? '', line.purchaseOrder ?? '', line.description]),
  ].join('\n');
}
