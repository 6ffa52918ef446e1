import type { ElementHandle, Page } from 'puppeteer-core';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { AccountTermsDocument, ConvertOnAccountDocument } from '../graphql/generated';
import { byRole, checkScreen, choose, fill, pageText, press, waitForText } from '../helpers/browser';
import { requestBooking } from '../helpers/bookings';
import { consoleSuite, signInToConsole } from '../helpers/console';
import { docx } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createPendingAccount, createStaffToken, keysMailedTo, type TestAccount } from '../helpers/fixtures';
import { waitForStatus } from '../helpers/orders';

/**
 * A whole desk day in the console, in one browser session (docs/decisions.md D34): an admin approves a new account
 * and puts it on terms (D31); adds an interpreter (D32); the account's certified order is reviewed and completed with
 * its certificate; its booking is confirmed with the interpreter who qualifies; the month's invoice is closed and
 * recorded paid. Each result is checked through REST as the client sees it, and each screen at phone and desktop
 * width (axe, no sideways scrolling, a screenshot).
 */
const suite = consoleSuite({});
let page: Page;
let firm: TestAccount;

beforeAll(async () => {
  const pending = await createPendingAccount(suite.t, await createStaffToken(suite.t));
  firm = { ...pending, key: '' };
  ({ page } = await signInToConsole(suite, {
    role: StaffRole.ADMIN,
    name: 'Ada Admin',
    credentials: 'ATA-certified translator no. 200002',
  }));
}, 60_000);

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
  await (await byRole(page, 'checkbox', 'Video remote')).click();
  await press(page, 'Add interpreter');
  await waitForText(page, 'Interpreter added.');
  await byRole(page, 'listitem', 'Inés Interpreter');
  await checkScreen(suite.t, page, 'console-day-interpreters');
}, 60_000);

it('reviews the account’s certified order and completes it with its certificate', async () => {
  const { t } = suite;
  const source = (await uploadFile(t, firm.key, await docx({ paragraphs: ['Poder notarial.'] }), 'poder.docx')).id;
  const quote = (
    await t.rest
      .post(
        '/api/v1/quotes',
        {
          source_language: 'es',
          target_language: 'en',
          service_type: 'certified',
          file_ids: [source],
          reference: 'Matter 77',
        },
        firm.key,
      )
      .expect(201)
  ).body.data;
  const placed = await t.gql(ConvertOnAccountDocument, { id: quote.id, onAccount: true }, firm.key);
  expect(placed.errors).toBeUndefined();
  const order = placed.data!.convertQuote.order;
  await waitForStatus(t, firm, order.id, 'in_review');

  await press(page, 'Orders', 'link');
  await fill(page, 'Search', 'Matter 77', 'searchbox');
  await press(page, 'Filter');
  await (await byRole(page, 'link', order.number)).click();
  await byRole(page, 'heading', `Order ${order.number} In review`);
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
  const booking = await requestBooking(suite.t, firm.key, { reference: 'Hearing Ruiz' });
  await press(page, 'Bookings', 'link');
  await (await byRole(page, 'link', booking.number)).click();
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
  await press(page, 'Record payment');
  await waitForText(page, 'Payment recorded.');
  await byRole(page, 'heading', `${invoice.number} Paid`);
  expect(await rest(`/invoices/${invoice.id}`)).toMatchObject({ status: 'paid', paid_cents: invoice.total_cents });
  await checkScreen(t, page, 'console-day-invoice-paid');
}, 60_000);
