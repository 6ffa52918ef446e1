import { longDate } from '../../src/documents/certificate-pdf';
import { formatMoney } from '../../src/domain/shared/money';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  CloseInvoicesDocument,
  ConvertOnAccountDocument,
  type InvoiceStatus,
  PartnerInvoiceAccountDocument,
  PartnerInvoiceDocument,
  PartnerInvoicesDocument,
  RecordInvoicePaymentDocument,
  RefundOrderDocument,
  SentEmailsDocument,
  StaffInvoicesDocument,
  VoidInvoiceDocument,
} from '../graphql/generated';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { apiWordingIn } from '../helpers/mail';
import { placedOnAccount, quoteFor, termsAccount as termsOfAccount } from '../helpers/terms';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { gqlRaw } from '../helpers/graphql-raw';
import { bytesOf, pdfText } from '../helpers/pdf-pages';
import { StatementLog } from '../helpers/statement-log';

/**
 * D31's invoices through HTTP on both doors: closed on demand by admin staff (a second close adds nothing), numbered,
 * with lines (matter and purchase order) and credits for refunds; read by the account (REST and GraphQL, newest first,
 * a signed 5-minute PDF link), paid by recorded payments (never more than is due), voided, overdue e-mailed. The
 * monthly close, and a month of mixed work whose invoices add up to the cent: invoice-close.e2e.test.ts.
 */
let t: TestApp;
let admin: string;
let desk: string;
const statements = new StatementLog();

beforeAll(async () => {
  t = await startTestApp({ workers: false, onQuery: statements.record });
  admin = await createStaffToken(t);
  desk = await createStaffToken(t, StaffRole.DESK);
});
afterAll(() => t.close());

const termsAccount = () => termsOfAccount(t, admin);

const placedOrder = (account: TestAccount, fileId: string, purchaseOrder: string | null = null) =>
  placedOnAccount(t, account, fileId, purchaseOrder);

/** The text of invoice `id`'s PDF, fetched as its account's client would: the invoice's `download_url`, then the PDF. */
async function invoiceText(id: string, account: TestAccount): Promise<string> {
  const read = (await t.rest.get(`/api/v1/invoices/${id}`, account.key).expect(200)).body.data;
  const url = new URL(read.download_url);
  const pdf = await bytesOf(t, `${url.pathname}${url.search}`).expect(200);
  expect(pdf.headers['content-type']).toBe('application/pdf');
  expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
  return pdfText(pdf.body as Buffer);
}

it('closes on demand (admin only), numbers and lists; a second close adds nothing; both doors read it with a PDF link', async () => {
  const { account, fileId } = await termsAccount();
  const first = await placedOrder(account, fileId, 'PO-1');
  const second = await placedOrder(account, fileId);

  const refused = await t.gql(CloseInvoicesDocument, { accountId: account.id }, desk);
  expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');

  const closed = await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin);
  const invoice = closed.data!.closeInvoices!;
  expect(invoice.number).toMatch(/^INV-\d{6}-\d{4}$/);
  expect(invoice.status).toBe('OPEN');
  expect(invoice.lines.map((line) => [line.number, line.reference, line.purchaseOrder, line.amountCents])).toEqual([
    [first.number, 'Matter 12', 'PO-1', first.total],
    [second.number, 'Matter 12', null, second.total],
  ]);
  expect(invoice.totalCents).toBe(first.total + second.total);
  expect(new Date(invoice.dueAt).getTime() - new Date(invoice.issuedAt).getTime()).toBe(30 * 24 * 3600_000);

  const again = await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin);
  expect(again.errors).toBeUndefined();
  expect(again.data!.closeInvoices).toBeNull();

  const list = (await t.rest.get('/api/v1/invoices?status=open', account.key).expect(200)).body;
  expect(list.data.map((item: { id: string }) => item.id)).toEqual([invoice.id]);
  expect((await t.rest.get('/api/v1/invoices?status=paid', account.key).expect(200)).body.data).toEqual([]);
  await t.rest.get('/api/v1/invoices?status=late', account.key).expect(422);
  const one = (await t.rest.get(`/api/v1/invoices/${invoice.id}`, account.key).expect(200)).body.data;
  expect(one.lines[0]).toMatchObject({ kind: 'order', purchase_order: 'PO-1', reference: 'Matter 12' });
  const other = await createApprovedAccount(t, admin);
  await t.rest.get(`/api/v1/invoices/${invoice.id}`, other.key).expect(404);
  expect((await t.gql(PartnerInvoicesDocument, {}, other.key)).data?.invoices.pageInfo.total).toBe(0);
  expect((await t.gql(PartnerInvoiceDocument, { id: invoice.id }, account.key)).data?.invoice?.number).toBe(
    invoice.number,
  );

  const url = new URL(one.download_url);
  expect(Number(url.searchParams.get('expires')) * 1000 - Date.now()).toBeLessThanOrEqual(5 * 60_000);
  expect(await invoiceText(invoice.id, account)).toContain(invoice.number);
  await t.rest
    .raw()
    .get(`${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${'0'.repeat(64)}`)
    .expect(404);
});

it("prints what a firm's accounts payable look for: company, bill-to, lines, credits, totals, due date, how to pay", async () => {
  const { account, fileId } = await termsAccount();
  const first = await placedOrder(account, fileId, 'PO-4471');
  const second = await placedOrder(account, fileId);
  await t.gql(RefundOrderDocument, { id: first.id, amountCents: 250, reason: 'Late delivery' }, admin);
  const invoice = (await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices!;
  const total = first.total + second.total - 250;
  expect(invoice.totalCents).toBe(total);
  await t.gql(RecordInvoicePaymentDocument, { id: invoice.id, amountCents: 1000, method: 'wire' }, admin);

  // The text as laid out, each run of blanks one space: a table's row reads along one line.
  const text = (await invoiceText(invoice.id, account)).replace(/\s+/g, ' ');
  const money = (cents: number) => formatMoney(cents, 'USD');
  const due = longDate(new Date(invoice.dueAt));
  const { company } = t.config;
  expect(text).toContain(`${company.name} ${company.address} INVOICE`);
  expect(text).toContain(
    `Invoice number: ${invoice.number} Bill to: Smith & Partners LLP (${account.email}) ` +
      `Date of issue: ${longDate(new Date(invoice.issuedAt))} Terms: Net 30 Due date: ${due} Status: OPEN`,
  );
  expect(text).toContain(
    `Order / booking Matter PO Description Amount ` +
      `${first.number} Matter 12 PO-4471 Translation order ${first.number} ${money(first.total)} ` +
      `${second.number} Matter 12 Translation order ${second.number} ${money(second.total)} ` +
      `Credit Refund on ${first.number} -${money(250)}`,
  );
  expect(text).toContain(
    `Work ${money(first.total + second.total)} Credits -${money(250)} Total ${money(total)} ` +
      `Paid ${money(1000)} Amount due ${money(total - 1000)}`,
  );
  expect(text).toContain(
    `How to pay Please pay the amount due by ${due} by bank transfer or cheque, quoting invoice ${invoice.number}. ` +
      `Questions about this invoice: ${company.supportEmail}.`,
  );
  expect(text).toContain(`Invoice ${invoice.number} · Page 1 of 1 · Due ${due}`);
});

it('records payments (admin only, never past what is due) until paid; voids; tells an overdue invoice and stops placing', async () => {
  const { account, fileId } = await termsAccount();
  const order = await placedOrder(account, fileId);
  const invoice = (await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices!;

  const byDesk = await t.gql(RecordInvoicePaymentDocument, { id: invoice.id, amountCents: 1, method: 'wire' }, desk);
  expect(byDesk.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  const tooMuch = await t.gql(
    RecordInvoicePaymentDocument,
    { id: invoice.id, amountCents: order.total + 1, method: 'wire' },
    admin,
  );
  expect(tooMuch.errors?.[0].extensions?.errors).toHaveProperty('amountCents');
  const part = await t.gql(
    RecordInvoicePaymentDocument,
    { id: invoice.id, amountCents: 100, method: 'wire', reference: 'TX-1' },
    admin,
  );
  expect(part.data?.recordInvoicePayment).toMatchObject({ status: 'OPEN', paidCents: 100 });
  const rest = await t.gql(
    RecordInvoicePaymentDocument,
    { id: invoice.id, amountCents: order.total - 100, method: 'cheque' },
    admin,
  );
  expect(rest.data?.recordInvoicePayment).toMatchObject({ status: 'PAID', paidCents: order.total });
  const after = await t.gql(RecordInvoicePaymentDocument, { id: invoice.id, amountCents: 1, method: 'wire' }, admin);
  expect(after.errors?.[0].extensions?.errors).toHaveProperty('status');

  // Void: the work goes back to be invoiced again.
  const next = await placedOrder(account, fileId);
  const wrong = (await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices!;
  const voided = await t.gql(VoidInvoiceDocument, { id: wrong.id, reason: 'Issued to the wrong office' }, admin);
  expect(voided.data?.voidInvoice.status).toBe('VOID');
  const reissued = (await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices!;
  expect(reissued.lines.map((line) => line.number)).toEqual([next.number]);

  // Overdue: e-mailed once, listed for staff, and nothing more is placed on account.
  await t.orm.em
    .fork()
    .getConnection()
    .execute(`UPDATE invoices SET due_at = now() - interval '1 day' WHERE id = ?`, [reissued.id]);
  expect(await t.services.invoices.notifyOverdue(t.orm.em.fork())).toBe(1);
  expect(await t.services.invoices.notifyOverdue(t.orm.em.fork())).toBe(0);
  const mail = await t.gql(SentEmailsDocument, { to: account.email }, admin);
  expect(mail.data!.sentEmails.items.filter((item) => item.kind === 'invoice_overdue')).toHaveLength(1);
  const overdue = await t.gql(StaffInvoicesDocument, { accountId: account.id, overdue: true }, admin);
  expect(overdue.data!.staffInvoices.items.map((item) => item.id)).toEqual([reissued.id]);
  const quote = await quoteFor(t, account, fileId);
  const stopped = await t.gql(ConvertOnAccountDocument, { id: quote.id, onAccount: true }, account.key);
  expect(stopped.errors?.[0].extensions?.errors?.terms?.[0]).toContain('overdue');
  const open = await t.gql(StaffInvoicesDocument, { accountId: account.id, status: 'OPEN' as InvoiceStatus }, desk);
  expect(open.data!.staffInvoices.pageInfo.total).toBe(1);
});

it('e-mails the account each invoice it issues: number, total, due date and where its PDF is, as plain text', async () => {
  const { account, fileId } = await termsAccount();
  const order = await placedOrder(account, fileId);
  const invoice = (await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices!;
  const issued = (await t.gql(SentEmailsDocument, { to: account.email }, admin)).data!.sentEmails.items.filter(
    (item) => item.kind === 'invoice_issued',
  );
  expect(issued).toHaveLength(1);
  const [mail] = issued;
  const total = `$${(order.total / 100).toFixed(2)}`;
  const due = longDate(new Date(invoice.dueAt));
  expect(mail.subject).toBe(`Invoice ${invoice.number}: ${total} due ${due}`);
  expect(mail.text).toContain('Hello Smith & Partners LLP,');
  expect(mail.text).toContain(`Total: ${total}`);
  expect(mail.text).toContain(`Due date: ${due}`);
  // A link to the portal's invoices page, which signs a fresh link to the PDF: no API call for a person to make.
  expect(mail.text).toContain(
    `Download its PDF from the invoices page of the client portal: ${t.config.appUrl}/portal/invoices`,
  );
  expect(apiWordingIn(mail.text!)).toEqual([]);
  // The outbox page shows it escaped.
  const page = await t.rest
    .raw()
    .get(`/sandbox/mail?to=${encodeURIComponent(account.email)}`)
    .expect(200);
  expect(page.text).toContain('Hello Smith &#38; Partners LLP,');
  expect(page.text).not.toContain('Smith & Partners');
  // A second close issues nothing, and sends nothing.
  expect((await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices).toBeNull();
  const after = (await t.gql(SentEmailsDocument, { to: account.email }, admin)).data!.sentEmails.items;
  expect(after.filter((item) => item.kind === 'invoice_issued')).toHaveLength(1);
});

it('shows staff whose invoice it is (Invoice.account) in the list statements, whatever the page size', async () => {
  const accounts = [await termsAccount(), await termsAccount(), await termsAccount()];
  const issued: { id: string; accountId: string }[] = [];
  for (const { account, fileId } of accounts) {
    await placedOrder(account, fileId);
    const invoice = (await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices!;
    issued.push({ id: invoice.id, accountId: account.id });
  }
  const query = 'query($perPage: Int) { staffInvoices(perPage: $perPage) { items { id account { id name } } } }';
  const counts: number[] = [];
  for (const perPage of [1, 3, 50]) {
    const answer = await gqlRaw(t.rest.raw(), query, { token: desk, variables: { perPage } });
    expect(answer.errors).toBeUndefined();
    const items = (answer.data!.staffInvoices as { items: { id: string; account: { id: string; name: string } }[] })
      .items;
    expect(items.length).toBeLessThanOrEqual(perPage);
    expect(items.length).toBeGreaterThanOrEqual(Math.min(perPage, 3));
    for (const { id, accountId } of issued) {
      const item = items.find((found) => found.id === id);
      if (item) expect(item.account).toEqual({ id: accountId, name: 'Smith & Partners LLP' });
    }
    counts.push(statements.of(answer).length);
  }
  expect(new Set(counts).size).toBe(1);
  // The newest three are these, newest first, each with its own account.
  const newest = await gqlRaw(t.rest.raw(), query, { token: admin, variables: { perPage: 3 } });
  const items = (newest.data!.staffInvoices as { items: { id: string; account: { id: string } }[] }).items;
  expect(items.map((item) => [item.id, item.account.id])).toEqual(
    [...issued].reverse().map(({ id, accountId }) => [id, accountId]),
  );
  // An account reads its invoice, but not that field; a translator reads no invoices.
  const partner = await t.gql(PartnerInvoiceAccountDocument, { id: issued[0].id }, accounts[0].account.key);
  expect(partner.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  const translator = await createStaffToken(t, StaffRole.TRANSLATOR);
  expect((await gqlRaw(t.rest.raw(), query, { token: translator })).errors?.[0].extensions.code).toBe('FORBIDDEN');
});
