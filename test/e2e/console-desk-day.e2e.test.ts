import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ElementHandle, Page } from 'puppeteer-core';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { AccountTermsDocument, ConvertOnAccountDocument } from '../graphql/generated';
import {
  byRole,
  checkScreen,
  choose,
  chooseFile,
  fill,
  pageText,
  press,
  typeDate,
  waitForText,
} from '../helpers/browser';
import { passStart, requestBooking } from '../helpers/bookings';
import { notarizationDetails } from '../helpers/certified';
import { consoleSuite, dateTimeKeys, signInToConsole } from '../helpers/console';
import { docx, pdf, png, SCANNED } from '../helpers/documents';
import { uploadFile, waitForAnalysis } from '../helpers/files';
import { createPendingAccount, createStaffToken, keysMailedTo, type TestAccount } from '../helpers/fixtures';
import { waitForStatus } from '../helpers/orders';
import { pollUntil } from '../helpers/poll';
import { placeOnAccount } from '../helpers/terms';

/**
 * A whole desk day in the console, in one browser session (docs/decisions.md D34): an admin approves a new account
 * and puts it on terms (D31); adds an interpreter (D32); the account's certified DOCX order is reviewed and completed
 * with its certificate; its booking is confirmed with the interpreter who qualifies; the month's invoice is closed and
 * recorded paid; a certified scan (a PDF with no text layer) goes to a translator, not on hold (D30), who attaches the
 * translation from a file picker and certifies it once the desk has recorded its notarization with the notary's scan;
 * the booking is completed with the hours it really took and its overtime shown; an amount of the DOCX order is
 * refunded (D30). Each result is checked through REST as the client sees it, and each screen at phone and desktop
 * width (axe, no sideways scrolling, a screenshot).
 */
const suite = consoleSuite({});
let page: Page;
let firm: TestAccount;
/** What the day's steps hand on: the DOCX order (refunded at the end) and the booking (completed later). */
let docxOrder: { id: string; number: string };
let booking: { id: string; number: string };

beforeAll(async () => {
  const pending = await createPendingAccount(suite.t, await createStaffToken(suite.t));
  firm = { ...pending, key: '' };
  ({ page } = await signInToConsole(suite, {
    role: StaffRole.ADMIN,
    name: 'Ada Admin',
    credentials: 'ATA-certified translator no. 200002',
  }));
}, 60_000);

/** The account's certified quote for `fileId`, Spanish into English, placed on account (D31) through GraphQL. */
async function placeCertified(fileId: string, extra: object): Promise<{ id: string; number: string }> {
  const quote = (
    await suite.t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'certified', file_ids: [fileId], ...extra },
        firm.key,
      )
      .expect(201)
  ).body.data;
  const placed = await suite.t.gql(ConvertOnAccountDocument, { id: quote.id, onAccount: true }, firm.key);
  expect(placed.errors).toBeUndefined();
  return placed.data!.convertQuote.order;
}

const rest = async (path: string) => (await suite.t.rest.get(`/api/v1${path}`, firm.key).expect(200)).body.data;

/** The account's card on the accounts screen, found by a search of its e-mail. */
async function accountCard(): Promise<ElementHandle> {
  await press(page, 'Accounts', 'link');
  await fill(page, 'Search', firm.email, 'searchbox');
  await press(page, 'Filter');
  await waitForText(page, '1 account');
  return byRole(page, 'listitem', `Smith & Partners LLP (${firm.email})`);
}

it('approves the new account and puts it on 30-day terms', async () => {
  const { t } = suite;
  const card = await accountCard();
  await (await card.waitForSelector('::-p-aria([name="Approve account"][role="button"])'))!.click();
  await waitForText(page, 'Approved; the first key was e-mailed');
  firm.key = (await keysMailedTo(t, await createStaffToken(t), firm.email))[0];

  await (await card.waitForSelector('summary'))!.click();
  await choose(page, 'Terms', 'NET_30');
  await fill(page, 'Credit limit (USD)', '5000');
  await press(page, 'Save billing terms');
  await waitForText(page, 'Billing terms saved');
  await waitForText(page, 'Net 30, credit limit $5,000.00');
  // Its first admin is the account's own e-mail, invited until it signs in (D27).
  await waitForText(page, `(${firm.email}), Admin, invited`);
  await checkScreen(t, page, 'console-day-account');
  const terms = await t.gql(AccountTermsDocument, {}, firm.key);
  expect(terms.data!.me).toMatchObject({ billingTerms: 'NET_30', creditLimitCents: 500_000 });
}, 60_000);

it('adds an interpreter to the records', async () => {
  await press(page, 'Interpreters', 'link');
  await byRole(page, 'heading', 'New interpreter');
  await fill(page, 'Name', 'Inés Interpreter');
  await fill(page, 'E-mail', `ines-${Date.now()}@interpreters.test`);
  await fill(page, 'Languages', 'es');
  await press(page, 'Video remote', 'checkbox');
  await press(page, 'Add interpreter');
  await waitForText(page, 'Interpreter added.');
  await byRole(page, 'listitem', 'Inés Interpreter');
  await checkScreen(suite.t, page, 'console-day-interpreters');
}, 60_000);

it('reviews the account’s certified order and completes it with its certificate', async () => {
  const { t } = suite;
  const source = (await uploadFile(t, firm.key, await docx({ paragraphs: ['Poder notarial.'] }), 'poder.docx')).id;
  const order = (docxOrder = await placeCertified(source, { reference: 'Matter 77' }));
  await waitForStatus(t, firm, order.id, 'in_review');

  await press(page, 'Orders', 'link');
  await fill(page, 'Search', 'Matter 77', 'searchbox');
  await press(page, 'Filter');
  await press(page, order.number, 'link');
  await byRole(page, 'heading', `Order ${order.number} In review`);
  // No notarization was asked for: the page offers none to record.
  expect(await pageText(page)).not.toContain('Record notarization');
  await press(page, 'Approve translation');
  await waitForText(page, 'Approved by Ada Admin');
  await press(page, 'Complete order');
  await waitForText(page, 'Verification page');
  const completed = await rest(`/orders/${order.id}`);
  expect(completed.status).toBe('completed');
  expect(await pageText(page)).toContain(completed.certificate.verification_code);
  await checkScreen(t, page, 'console-day-order');
}, 120_000);

it('confirms the account’s booking with the interpreter who qualifies', async () => {
  booking = await requestBooking(suite.t, firm.key, { reference: 'Hearing Ruiz' });
  await press(page, 'Bookings', 'link');
  await press(page, booking.number, 'link');
  await byRole(page, 'heading', `Booking ${booking.number} Requested`);
  await byRole(page, 'option', 'Inés Interpreter · es');
  const ines = await page.$eval('select[name="interpreterId"]', (select) =>
    [...select.querySelectorAll('option')].find((o) => o.textContent?.startsWith('Inés'))!.getAttribute('value'),
  );
  await choose(page, 'Interpreter', String(ines));
  await press(page, 'Confirm availability');
  await waitForText(page, 'Availability confirmed');
  await byRole(page, 'heading', `Booking ${booking.number} Awaiting payment`);
  await checkScreen(suite.t, page, 'console-day-booking');
  expect(await rest(`/interpretation-bookings/${booking.id}`)).toMatchObject({
    status: 'awaiting_payment',
    interpreter_name: 'Inés Interpreter',
  });
}, 60_000);

it('closes the month’s invoice now and records it paid', async () => {
  const { t } = suite;
  const card = await accountCard();
  await (await card.waitForSelector('summary'))!.click();
  await press(page, 'Close invoice now');
  await waitForText(page, 'Invoiced now');
  await press(page, 'Invoices of Smith & Partners LLP', 'link');
  await byRole(page, 'heading', 'Invoices of Smith & Partners LLP');
  // The account is named by the service: a link carrying another name in its address shows the account's own.
  const account = new URL(page.url()).searchParams.get('account');
  await page.goto(`${suite.b.base}/console/invoices?account=${account}&accountName=Mallory+Ltd`, { waitUntil: 'load' });
  await byRole(page, 'heading', 'Invoices of Smith & Partners LLP');
  expect(await pageText(page)).not.toContain('Mallory');
  const [invoice] = (await t.rest.get('/api/v1/invoices', firm.key).expect(200)).body.data;
  expect(invoice.status).toBe('open');
  const invoiceCard = await byRole(page, 'listitem', `Invoice ${invoice.number}`);
  // Whose invoice it is, read with the page (Invoice.account).
  expect(await invoiceCard.evaluate((el) => el.textContent)).toContain('Smith & Partners LLP');
  // The PDF opens from a signed link of this service.
  const pdfLink = await byRole(page, 'link', `Open ${invoice.number} (PDF)`);
  const href = String(await pdfLink.evaluate((el) => el.getAttribute('href')));
  const pdf = await t.rest.raw().get(href).expect(200);
  expect(pdf.headers['content-type']).toBe('application/pdf');
  await fill(page, 'Paid by', 'Bank transfer');
  await checkScreen(t, page, 'console-day-invoice');
  // Two submits in one tick (faster than any "busy" state is drawn) record one payment.
  await fill(page, `Amount received (${invoice.currency.toUpperCase()})`, '1.00');
  await page.evaluate(
    `{ const form = document.querySelector('form[aria-label="Payment against ${invoice.number}"]'); form.requestSubmit(); form.requestSubmit(); }`,
  );
  await waitForText(page, 'Payment recorded.');
  await waitForText(page, '$1.00 paid');
  expect(await rest(`/invoices/${invoice.id}`)).toMatchObject({ status: 'open', paid_cents: 100 });
  const rest$ = ((invoice.total_cents - 100) / 100).toFixed(2);
  await fill(page, `Amount received (${invoice.currency.toUpperCase()})`, rest$);
  await press(page, 'Record payment');
  await waitForText(page, 'Payment recorded.');
  await byRole(page, 'heading', `${invoice.number} Paid`);
  expect(await rest(`/invoices/${invoice.id}`)).toMatchObject({ status: 'paid', paid_cents: invoice.total_cents });
  await checkScreen(t, page, 'console-day-invoice-paid');
}, 60_000);

it('routes a certified scan to a translator, who translates and certifies it; the desk notarizes it with its scan', async () => {
  const { t } = suite;
  // A scanned power of attorney: a PDF whose one page is an image, with no text layer (D30).
  const scan = await uploadFile(t, firm.key, await pdf([SCANNED]), 'poder-escaneado.pdf');
  await waitForAnalysis(t, firm.key, scan.id);
  const order = await placeCertified(scan.id, {
    reference: 'Matter 78',
    unit_count: 1,
    addons: [{ code: 'notarization' }],
  });
  const { page: tomasPage, staff: tomas } = await signInToConsole(suite, {
    role: StaffRole.TRANSLATOR,
    name: 'Tomás Translator',
    credentials: 'ATA-certified translator no. 200003',
  });

  // It waits for a translator, in processing and not on hold, as the client reads it. (A tab is read once in front.)
  await page.bringToFront();
  await press(page, 'Orders', 'link');
  await press(page, 'Needs translation', 'checkbox');
  await press(page, 'Filter');
  await pollUntil(
    async () => (await page.reload({ waitUntil: 'load' }), page.$(`::-p-aria([name="${order.number}"][role="link"])`)),
    (link) => link !== null,
    { timeoutMs: 30_000, intervalMs: 500, failure: () => `${order.number} never reached the translators' queue` },
  );
  expect(await rest(`/orders/${order.id}`)).toMatchObject({ status: 'processing', hold_reason: null });
  await press(page, order.number, 'link');
  await byRole(page, 'heading', `Order ${order.number} Processing`);
  await waitForText(page, '1 scanned page(s)');
  await choose(page, 'Assignee', tomas.id);
  await press(page, 'Assign');
  await waitForText(page, 'Assignment saved.');

  // The translator finds it in their own queue and attaches the translation from the file picker.
  await tomasPage.bringToFront();
  await press(tomasPage, 'Orders', 'link');
  await press(tomasPage, 'Assigned to me', 'checkbox');
  await press(tomasPage, 'Filter');
  await press(tomasPage, order.number, 'link');
  const translation = join(t.config.dataDir, 'poder-escaneado.en.pdf');
  writeFileSync(translation, await pdf(['Power of attorney granted before the notary of Madrid.']));
  await chooseFile(tomasPage, 'Translation file', translation);
  await press(tomasPage, 'Attach translation');
  await waitForText(tomasPage, 'Translation attached.');
  await byRole(tomasPage, 'heading', `Order ${order.number} In review`);
  await checkScreen(t, tomasPage, 'console-day-translator');
  expect((await rest(`/orders/${order.id}`)).status).toBe('in_review');

  // The desk reads it reviewed (the translator's own file) and records the notarization with its scan.
  await page.bringToFront();
  await page.reload({ waitUntil: 'load' });
  await byRole(page, 'heading', `Order ${order.number} In review`);
  await waitForText(page, 'Replaced by Tomás Translator');
  // Sent empty, every field says what it needs beside itself, "Notarized at" too, in words and not GraphQL's.
  await press(page, 'Record notarization');
  await waitForText(page, 'The notary name field is required.');
  await waitForText(page, 'The notarized at field is required.');
  expect(await pageText(page)).not.toMatch(/Variable|DateTime/);
  expect(await page.$$('input[aria-invalid="true"]')).toHaveLength(5);
  await checkScreen(t, page, 'console-day-notarization-refused');
  const notary = notarizationDetails();
  await fill(page, 'Notary', notary.notaryName);
  await fill(page, 'Jurisdiction', notary.jurisdiction);
  await fill(page, 'Commission number', notary.commissionNumber);
  await typeDate(page, 'Commission expires on', '06302030');
  await typeDate(page, 'Notarized at', ...dateKeys(new Date(notary.notarizedAt)));
  const notarized = join(t.config.dataDir, 'notarized.pdf');
  writeFileSync(notarized, await pdf([SCANNED]));
  await chooseFile(page, 'Scan of the notarized certificate', notarized);
  await press(page, 'Record notarization');
  await waitForText(page, 'Notarization recorded.');
  await waitForText(page, `${notary.notaryName}, ${notary.jurisdiction}`);
  // A better scan, a photo, replaces the first: the order keeps one scan of its notarization.
  const photo = join(t.config.dataDir, 'notarized.png');
  writeFileSync(photo, png());
  await chooseFile(page, 'Scan of the notarized certificate', photo);
  await press(page, 'Record notarization');
  await waitForText(page, `${order.number}-notarization.png`);
  expect(await pageText(page)).not.toContain(`${order.number}-notarization.pdf`);
  await checkScreen(t, page, 'console-day-scan');

  // The translator certifies what they translated (D30): they complete it, and the desk sees the certificate.
  await tomasPage.bringToFront();
  await tomasPage.reload({ waitUntil: 'load' });
  await press(tomasPage, 'Complete order');
  await waitForText(tomasPage, 'Verification page');
  await tomasPage.close();
  await page.bringToFront();
  await page.reload({ waitUntil: 'load' });
  await byRole(page, 'heading', `Order ${order.number} Completed`);

  const completed = await rest(`/orders/${order.id}`);
  expect(completed.status).toBe('completed');
  const types = completed.files.map((file: { type: string }) => file.type);
  expect(types).toEqual(expect.arrayContaining(['source', 'translation', 'certificate']));
  expect(
    completed.files
      .filter((file: { name: string }) => file.name.includes('-notarization.'))
      .map((f: { name: string }) => f.name),
  ).toEqual([`${order.number}-notarization.png`]);
  expect(await pageText(page)).toContain(completed.certificate.verification_code);
  const certificate = (await t.rest.get(`/api/v1/certificates/${completed.certificate.verification_code}`).expect(200))
    .body.data;
  expect(certificate).toMatchObject({
    notarized: true,
    order_number: order.number,
    translator: { name: 'Tomás Translator', credentials: 'ATA-certified translator no. 200003' },
  });
  expect(certificate.documents.map((document: { source_name: string }) => document.source_name)).toContain(
    'poder-escaneado.pdf',
  );
}, 120_000);

it('completes the booking with the hours it really took, its overtime shown', async () => {
  const { t } = suite;
  // The client places the confirmed booking on account; then its hour comes and goes.
  await placeOnAccount(t, (await rest(`/interpretation-bookings/${booking.id}`)).payment.approval_url, 'booking');
  await passStart(t, booking.id);
  await press(page, 'Bookings', 'link');
  await press(page, booking.number, 'link');
  await byRole(page, 'heading', `Booking ${booking.number} Confirmed`);
  await fill(page, 'Actual hours (optional)', '2.5');
  await press(page, 'Complete booking');
  await waitForText(page, 'Booking completed.');
  await byRole(page, 'heading', `Booking ${booking.number} Completed`);
  await waitForText(page, 'overtime 0.5 h');
  await checkScreen(t, page, 'console-day-booking-completed');
  expect(await rest(`/interpretation-bookings/${booking.id}`)).toMatchObject({
    status: 'completed',
    payment: { overtime: { hours: 0.5 } },
  });
}, 60_000);

it('refunds an amount of the paid DOCX order without moving it', async () => {
  const { t } = suite;
  await press(page, 'Orders', 'link');
  await fill(page, 'Search', 'Matter 77', 'searchbox');
  await press(page, 'Filter');
  await press(page, docxOrder.number, 'link');
  await byRole(page, 'heading', `Order ${docxOrder.number} Completed`);
  await fill(page, 'Amount to refund (USD)', '1.50');
  await fill(page, 'Reason for the refund', 'A page was counted twice.');
  await press(page, 'Refund');
  // The order was placed on account: the refund is a credit on its invoice, not a call to a provider (D31).
  await waitForText(page, 'Refund recorded as a credit on the account’s invoice.');
  await waitForText(page, '$1.50 refunded');
  // The form is emptied, so a second press cannot send the same refund again.
  const refundForm = await byRole(page, 'form', 'Refund an amount');
  expect(
    await refundForm.$$eval('input, textarea', (fields) =>
      fields.map((field) => (field as unknown as { value: string }).value),
    ),
  ).toEqual(['', '']);
  await checkScreen(t, page, 'console-day-refund');
  const refunded = await pollUntil(
    () => rest(`/orders/${docxOrder.id}`),
    (order) => order.payment.refunded_cents === 150,
    { failure: (order) => `refunded ${order.payment.refunded_cents} cents` },
  );
  expect(refunded).toMatchObject({ status: 'completed', payment: { provider: 'account', refunded_at: null } });
}, 60_000);

/** The parts Chromium's en-US date and time field takes for `date` in the browser's time zone (this process's). */
const dateKeys = (date: Date) =>
  dateTimeKeys(new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
