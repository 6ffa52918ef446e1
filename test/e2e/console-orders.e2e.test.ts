import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  byRole,
  checkScreen,
  choose,
  chooseFile,
  fill,
  MARKUP_TEXT,
  markupShown,
  offlinePage,
  pageText,
  press,
  signInThroughPage,
  type BrowserSession,
  waitForText,
} from '../helpers/browser';
import {
  AssignOrderDocument,
  DeactivateStaffUserDocument,
  HoldOrderDocument,
  ReleaseOrderDocument,
  StaffOrderDocument,
} from '../graphql/generated';
import { createStaffMember } from '../helpers/certified';
import { consoleSuite, signInToConsole } from '../helpers/console';
import { docx, pdf } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { pollUntil } from '../helpers/poll';
import type { TestApp } from '../helpers/test-app';

/**
 * The console's order desk in a real browser (docs/decisions.md D34): the queue's filters and search, and one
 * certified order worked from its screen by accessible names: a refusal shown beside its field, hold and release,
 * approve, attach a reviewed translation from a file picker, complete with the certificate, refund an amount; each
 * result checked through REST as the client sees it.
 */
const suite = consoleSuite({});
let t: TestApp;
let b: BrowserSession;
let firm: TestAccount;
let page: Page;
let desk: { email: string };
let orderId: string;
let orderNumber: string;

beforeAll(async () => {
  ({ t, b } = suite);
  firm = await createApprovedAccount(t, await createStaffToken(t));
  const source = (await uploadFile(t, firm.key, await docx({ paragraphs: ['Poder notarial.'] }), 'poder.docx')).id;
  orderId = await paidOrder(t, firm, [source], 'certified', { reference: 'Matter 4471' });
  await waitForStatus(t, firm, orderId, 'in_review');
  orderNumber = (await t.rest.get(`/api/v1/orders/${orderId}`, firm.key).expect(200)).body.data.number;
  ({ page, staff: desk } = await signInToConsole(suite, {
    role: StaffRole.ADMIN,
    name: 'Ada Admin',
    credentials: 'ATA-certified translator no. 200002',
  }));
}, 120_000);

const clientView = async () => (await t.rest.get(`/api/v1/orders/${orderId}`, firm.key).expect(200)).body.data;

it('finds the order by reference, by status and as needing no translator, and pages the queue', async () => {
  await fill(page, 'Search', 'Matter 4471', 'searchbox');
  await press(page, 'Filter');
  await byRole(page, 'link', orderNumber);
  expect(await pageText(page)).toContain('1 order');
  expect(new URL(page.url()).search).toBe('?search=Matter+4471');

  await choose(page, 'Status', 'COMPLETED');
  await press(page, 'Filter');
  await waitForText(page, '0 orders');

  await page.goto(`${b.base}/console/orders?status=IN_REVIEW`, { waitUntil: 'load' });
  await byRole(page, 'link', orderNumber);
  await checkScreen(t, page, 'console-queue');
  // A translator's queue (D30) holds the certified scans no one has translated: not this machine-translated one.
  await press(page, 'Needs translation', 'checkbox');
  await press(page, 'Filter');
  await waitForText(page, '0 orders');
}, 60_000);

it('returns from an order to the queue as it was filtered', async () => {
  await page.goto(`${b.base}/console/orders?search=Matter+4471&status=IN_REVIEW`, { waitUntil: 'load' });
  await press(page, orderNumber, 'link');
  await byRole(page, 'heading', `Order ${orderNumber} In review`);
  await press(page, 'Back to orders', 'link');
  await byRole(page, 'link', orderNumber);
  expect(new URL(page.url()).search).toBe('?search=Matter+4471&status=IN_REVIEW');
}, 60_000);

it('reads a page or a status in the address that is none as none given', async () => {
  // An address edited by hand shows the first page, or every status with a word why: never GraphQL's refusal.
  await page.goto(`${b.base}/console/orders?page=1.5`, { waitUntil: 'load' });
  await byRole(page, 'link', orderNumber);
  await page.goto(`${b.base}/console/orders?status=BOGUS`, { waitUntil: 'load' });
  await byRole(page, 'link', orderNumber);
  await waitForText(page, '“BOGUS” is not a status: every status is shown.');
  expect(await pageText(page)).not.toMatch(/GraphQL|Variable|Int cannot|OrderStatus/);
  await checkScreen(t, page, 'console-queue-bad-status');
}, 60_000);

it('keeps a deactivated assignee in the Assign select: pressing Assign unassigns no one', async () => {
  const staffToken = await createStaffToken(t);
  const gone = await createStaffMember(t, { name: 'Gus Gone' });
  expect((await t.gql(AssignOrderDocument, { orderId, staffUserId: gone.id }, staffToken)).errors).toBeUndefined();
  expect((await t.gql(DeactivateStaffUserDocument, { id: gone.id }, staffToken)).errors).toBeUndefined();
  await page.goto(`${b.base}/console/orders/${orderNumber}`, { waitUntil: 'load' });
  await byRole(page, 'combobox', 'Assignee');
  await page.waitForFunction(
    `document.querySelector('select[name="staffUserId"]').selectedOptions[0]?.textContent === 'Gus Gone (deactivated)'`,
  );
  await press(page, 'Assign');
  await waitForText(page, 'The staff user id field must name an active staff user.');
  await checkScreen(t, page, 'console-order-deactivated-assignee');
  const assignee = async () =>
    (await t.gql(StaffOrderDocument, { id: orderId }, staffToken)).data!.staffOrder!.assignee?.id;
  expect(await assignee()).toBe(gone.id);
  expect((await t.gql(AssignOrderDocument, { orderId, staffUserId: null }, staffToken)).errors).toBeUndefined();
}, 60_000);

it('says a move refused on a page left behind in words, and shows the order as it is now', async () => {
  const staffToken = await createStaffToken(t);
  await page.goto(`${b.base}/console/orders/${orderNumber}`, { waitUntil: 'load' });
  await byRole(page, 'heading', `Order ${orderNumber} In review`);
  // Someone else holds the order meanwhile; this page still offers "Hold".
  const held = await t.gql(HoldOrderDocument, { id: orderId, reason: 'Held at the other desk.' }, staffToken);
  expect(held.errors).toBeUndefined();
  await fill(page, 'Reason to hold', 'Waiting for the client.');
  await press(page, 'Hold');
  // The page is read again: the order as it is now, and the refusal still said, in words, though "Hold" is gone.
  await byRole(page, 'heading', `Order ${orderNumber} On hold`);
  await waitForText(page, 'Held at the other desk.');
  await byRole(page, 'button', 'Release');
  expect(await page.$eval('[role="alert"]', (alert) => alert.textContent)).toBe(
    'Cannot hold the order while the status is on hold.',
  );
  expect(await pageText(page)).not.toMatch(/on_hold|ON_HOLD/);
  await checkScreen(t, page, 'console-order-stale');
  expect((await t.gql(ReleaseOrderDocument, { id: orderId }, staffToken)).errors).toBeUndefined();
}, 60_000);

it('works the order from its screen: refusal beside the field, hold, release, approve, attach, complete, refund', async () => {
  await page.goto(`${b.base}/console/orders/${orderNumber}`, { waitUntil: 'load' });
  await byRole(page, 'heading', `Order ${orderNumber} In review`);
  await byRole(page, 'link', 'Download poder.docx');
  // A first note and a first message show at once, though the page held neither a note nor a message to refresh.
  await waitForText(page, 'No note yet.');
  await fill(page, 'Note', 'The client prefers the surname as on the passport.');
  await press(page, 'Add note');
  await waitForText(page, 'The client prefers the surname as on the passport.');
  await fill(page, 'Message to the client', 'Please confirm the spelling of the surname.');
  await press(page, 'Send message');
  await waitForText(page, 'Please confirm the spelling of the surname.');
  expect(await pageText(page)).not.toContain('No message yet.');
  // A message that waits for the client holds the order, the reason said in words, not as the service's code.
  await fill(page, 'Message to the client', 'Which date of birth is right?');
  await press(page, 'Hold the order until the client answers', 'checkbox');
  await press(page, 'Send message');
  await byRole(page, 'heading', `Order ${orderNumber} On hold`);
  await waitForText(page, 'waiting for the client’s answer');
  expect(await pageText(page)).not.toContain('awaiting_client');
  await press(page, 'Release');
  await byRole(page, 'heading', `Order ${orderNumber} In review`);

  // Hold with no reason: the service's message beside "Reason to hold", which is marked invalid.
  await press(page, 'Hold');
  await page.waitForSelector('textarea[aria-invalid="true"]');
  const reason = await byRole(page, 'textbox', 'Reason to hold');
  const described = await reason.evaluate((el) => el.getAttribute('aria-describedby'));
  expect(await page.$eval(`[id="${described}"]`, (el) => el.textContent)).toMatch(/reason/i);
  await checkScreen(t, page, 'console-order-refused');

  await fill(page, 'Reason to hold', 'Waiting for the client to confirm the spelling of a name.');
  await press(page, 'Hold');
  await byRole(page, 'button', 'Release');
  expect((await clientView()).status).toBe('on_hold');
  await press(page, 'Release');
  await byRole(page, 'button', 'Hold');
  expect((await clientView()).status).toBe('in_review');
  // The hold form is drawn again, without the success line of the hold the release undid.
  expect(await pageText(page)).not.toContain('Order held.');

  await press(page, 'Approve translation');
  await waitForText(page, 'Approved by Ada Admin');
  // The approve form is gone with the review; the page still says what was done.
  expect(await pageText(page)).toMatch(/\S approved\./);

  // Attach a reviewed translation from the file picker, then complete with the generated certificate.
  const reviewed = join(t.config.dataDir, 'reviewed.pdf');
  writeFileSync(reviewed, await pdf(['Power of attorney (reviewed).']));
  // No file chosen is said beside the picker in words, before anything is sent.
  await press(page, 'Attach translation');
  await waitForText(page, 'Choose the translation’s file.');
  expect(await pageText(page)).not.toContain('Upload!');
  await chooseFile(page, 'Translation file', reviewed);
  await press(page, 'Attach translation');
  await waitForText(page, 'Translation attached.');
  // Its form is still drawn, so the line is the form's alone: the screen does not say it a second time.
  expect((await pageText(page)).split('Translation attached.')).toHaveLength(2);
  await waitForText(page, 'poder.en.pdf');
  // The PDF previewed in the page: framed from this service (a refused frame would be an error in the console).
  await press(page, 'Preview poder.en.pdf');
  const frame = await page.waitForSelector('iframe[title="Preview of poder.en.pdf"]');
  const src = String(await frame!.evaluate((el) => el.getAttribute('src')));
  const inline = await t.rest.raw().get(src).expect(200);
  expect(inline.headers['content-disposition']).toMatch(/^inline;/);
  expect(inline.headers['content-security-policy']).toContain("frame-ancestors 'self'");
  // A DOCX is never shown inline, whatever the link asks.
  const docxLink = String(
    await (await byRole(page, 'link', 'Download poder.docx')).evaluate((el) => el.getAttribute('href')),
  );
  const attached = await t.rest.raw().get(`${docxLink}&disposition=inline`).expect(200);
  expect(attached.headers['content-disposition']).toMatch(/^attachment;/);
  await checkScreen(t, page, 'console-order');
  await press(page, 'Preview poder.en.pdf');

  await press(page, 'Complete order');
  await waitForText(page, 'Verification page');
  const completed = await clientView();
  expect(completed.status).toBe('completed');
  expect(await pageText(page)).toContain(completed.certificate.verification_code);

  await fill(page, 'Amount to refund (USD)', '1.50');
  await fill(page, 'Reason for the refund', 'Goodwill for the delay.');
  await press(page, 'Refund');
  await waitForText(page, 'Refund asked of the payment provider.');
  await pollUntil(clientView, (order) => order.payment.refunded_cents === 150, {
    failure: (order) => `refunded ${order.payment.refunded_cents} cents`,
  });
  await checkScreen(t, page, 'console-order-completed');
}, 120_000);

it('asks for fresh download links before they expire on a page left open', async () => {
  const left = await offlinePage(b);
  // Minutes pass in a second: the page's long timers (the links' refresh, 4.5 minutes) run at once.
  await left.evaluateOnNewDocument(`{
    const later = window.setTimeout;
    window.setTimeout = (run, ms, ...rest) => later(run, ms >= 60000 ? 1500 : ms, ...rest);
  }`);
  await signInThroughPage(b, left, 'console', desk.email);
  await byRole(left, 'heading', 'Orders');
  await left.goto(`${b.base}/console/orders/${orderNumber}`, { waitUntil: 'load' });
  const href = () =>
    byRole(left, 'link', 'Download poder.docx').then((a) => a.evaluate((el) => el.getAttribute('href')));
  const first = await href();
  await left.waitForFunction(
    `document.querySelector('a[download="poder.docx"]')?.getAttribute('href') !== ${JSON.stringify(first)}`,
  );
  const fresh = String(await href());
  expect(Number(new URL(fresh, b.base).searchParams.get('expires'))).toBeGreaterThan(
    Number(new URL(String(first), b.base).searchParams.get('expires')),
  );
  await t.rest.raw().get(fresh).expect(200);
  await left.close();
}, 60_000);

it("shows a client's message holding markup as the text it is, making no element of it", async () => {
  await t.rest.post(`/api/v1/orders/${orderId}/messages`, { text: MARKUP_TEXT }, firm.key).expect(201);
  await page.goto(`${b.base}/console/orders/${orderNumber}`, { waitUntil: 'load' });
  await byRole(page, 'heading', 'Messages with the client');
  await waitForText(page, MARKUP_TEXT);
  expect(await markupShown(page, 'section[aria-labelledby="messages-heading"]')).toEqual({
    literally: true,
    elements: [],
  });
}, 60_000);
