import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import {
  CloseInvoicesDocument,
  OrderOnAccountDocument,
  SetAccountBillingDocument,
  type BillingTerms,
} from '../graphql/generated';
import { byRole, checkScreen, fill, pageText, press, waitForText } from '../helpers/browser';
import { pdf, words } from '../helpers/documents';
import { createApprovedAccount } from '../helpers/fixtures';
import { chooseFiles, hrefOf, payAtCheckout, portalSuite, signInToPortal } from '../helpers/portal';

/**
 * A terms account in the client portal (docs/decisions.md D31, D35): the purchase order the account requires is
 * asked for beside its field, the order is placed on account, a placement past the credit limit says why and is paid
 * by card instead, and the monthly invoices are listed with their PDFs.
 */
const suite = portalSuite();

const setTerms = async (accountId: string, creditLimitCents: number) => {
  const terms = 'NET_30' as BillingTerms;
  const set = await suite.t.gql(
    SetAccountBillingDocument,
    { accountId, terms, creditLimitCents, purchaseOrderRequired: true },
    suite.staff,
  );
  expect(set.errors).toBeUndefined();
};

/** The order's id from the link the quote's section shows once the order is made. */
const placedOrderId = async (page: Page) =>
  String(await page.$eval('.quote a[href^="/portal/orders/"]', (a) => a.getAttribute('href')))
    .split('/')
    .pop()!;

it('asks for the required purchase order, places on account, pays by card past the limit, and lists invoices', async () => {
  const { t, b, staff } = suite;
  const firm = await createApprovedAccount(t, staff);
  await setTerms(firm.id, 1_000_000);
  const page = await signInToPortal(b, firm.email, 390);
  await press(page, 'Order a translation', 'link');
  await byRole(page, 'heading', 'Order a translation');
  const dir = t.config.dataDir;
  await writeFile(join(dir, 'brief.pdf'), await pdf([words(300)]));
  await chooseFiles(page, 'Upload', [join(dir, 'brief.pdf')]);
  await waitForText(page, '300 words', 30_000);
  await (await byRole(page, 'combobox', 'Source language')).select('de');
  await (await byRole(page, 'combobox', 'Target language')).select('en');

  // The account requires a purchase order: the service's own message, beside the field.
  await press(page, 'Get quote');
  await waitForText(page, 'The purchase order field is required for this account.');
  await page.waitForSelector('input[name="purchaseOrder"][aria-invalid="true"]');
  await fill(page, 'Purchase order (required)', 'PO-4471');
  await press(page, 'Get quote');
  await byRole(page, 'heading', 'Your quote');
  expect(await pageText(page)).not.toMatch(/\bPay\b/);
  await checkScreen(t, page, 'portal-terms-quote');
  await press(page, 'Place order on account');
  await waitForText(page, 'is placed on account: it goes on your next monthly invoice.');
  const placed = (await t.gql(OrderOnAccountDocument, { id: await placedOrderId(page) }, firm.key)).data!.order!;
  expect(placed).toMatchObject({ status: 'PROCESSING', purchaseOrder: 'PO-4471' });

  // Past the credit limit: the reason, and the card checkout instead; nothing was made by the refusal.
  await setTerms(firm.id, 100);
  await press(page, 'Get quote');
  await byRole(page, 'button', 'Place order on account');
  await press(page, 'Place order on account');
  await waitForText(page, 'credit limit');
  await checkScreen(t, page, 'portal-terms-refused');
  await press(page, 'Pay by card instead');
  await payAtCheckout(t, b, page);
  await waitForText(page, 'Thank you: the payment went through.');
  const byCard = new URL(page.url()).pathname.split('/').pop()!;
  expect((await t.gql(OrderOnAccountDocument, { id: byCard }, firm.key)).data!.order!.payment.provider).not.toBe(
    'account',
  );
  await waitForText(page, 'Paid');
  // The order placed on account was not paid: its timeline says it was placed on account (its invoice is paid later).
  await page.goto(`${b.base}/portal/orders/${placed.id}`, { waitUntil: 'load' });
  await waitForText(page, 'Placed on account');
  expect(await page.$$eval('ol li, ul li', (items) => items.some((item) => item.textContent?.startsWith('Paid')))).toBe(
    false,
  );

  // The month's invoice, closed by staff, with its PDF.
  const invoice = (await t.gql(CloseInvoicesDocument, { accountId: firm.id }, staff)).data!.closeInvoices!;
  await press(page, 'Invoices', 'link');
  await byRole(page, 'heading', 'Invoices');
  const download = await hrefOf(t, page, 'link', `Download ${invoice.number} (PDF)`);
  const file = await t.rest.raw().get(download).expect(200);
  expect(file.headers['content-type']).toBe('application/pdf');
  expect(await pageText(page)).toContain('Open');
  await checkScreen(t, page, 'portal-invoices');
  await page.close();
}, 240_000);
