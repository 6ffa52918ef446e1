import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HTTPRequest, Page } from 'puppeteer-core';
import {
  ApproveTranslationDocument,
  CancelInterpretationBookingDocument,
  CancelOrderDocument,
  CompleteCertifiedOrderDocument,
  MembersDocument,
  ViewerDocument,
  LanguagesDocument,
  MarkShippedDocument,
  type ServiceType,
  ConfirmInterpretationAvailabilityDocument,
  PostStaffOrderMessageDocument,
  SentEmailsDocument,
  StaffInterpretationBookingDocument,
  StaffOrderDocument,
  StaffOrderMessagesDocument,
  StaffCancelOrderDocument,
} from '../graphql/generated';
import {
  byRole,
  checkScreen,
  fill,
  holdRequests,
  MARKUP_TEXT,
  markupShown,
  offlinePage,
  pageText,
  press,
  waitForText,
  type BrowserSession,
} from '../helpers/browser';
import { docx, pdf, textlessPdf, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import {
  chooseFiles,
  controlsShown,
  holdOperation,
  payAtCheckout,
  portalSuite,
  signInToPortal,
} from '../helpers/portal';
import { createApprovedAccount, createStaffToken, KEY_PATTERN, type TestAccount } from '../helpers/fixtures';
import { payBookingCheckout, requestBooking } from '../helpers/bookings';
import { paidOrder, unpaidOrder, waitForStatus } from '../helpers/orders';
import type { TestApp } from '../helpers/test-app';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';

/**
 * The client portal (docs/decisions.md D35) in a real browser with the network cut off but for the service: a
 * firm's people sign in with the e-mailed code and find every control by its accessible name.
 */
let t: TestApp;
let b: BrowserSession;
let staff: string;
let desk: string;

const suite = portalSuite();
beforeAll(async () => {
  ({ t, b, staff } = suite);
  desk = await createStaffToken(t, StaffRole.DESK);
});

const signIn = (email: string, width?: number) => signInToPortal(b, email, width);

/** A file dropped on the drop zone, as a drag from the desktop delivers it. */
async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  // Scripts evaluate in the browser, where DataTransfer and DragEvent live.
  await page.evaluate(`{
    const data = new DataTransfer();
    const content = Uint8Array.from(atob(${JSON.stringify(bytes.toString('base64'))}), (c) => c.charCodeAt(0));
    data.items.add(new File([content], ${JSON.stringify(name)}, { type: 'application/pdf' }));
    const drop = new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data });
    document.querySelector('.drop').dispatchEvent(drop);
  }`);
}

/** The GraphQL multipart request an upload is. */
const isUpload = (request: HTTPRequest) =>
  request.method() === 'POST' && (request.headers()['content-type'] ?? '').startsWith('multipart/form-data');

/** The languages a language select offers, by code, in its order (its "Choose…" left out). */
const languageOptions = async (page: Page, label: string) =>
  (await byRole(page, 'combobox', label)).evaluate((select) =>
    [...(select as unknown as { options: { value: string }[] }).options].map((o) => o.value).filter(Boolean),
  );

const firmWithOrder = async () => {
  const firm = await createApprovedAccount(t, staff);
  const file = await uploadFile(t, firm.key, await docx({ paragraphs: [words(300)] }), 'lease.docx');
  return { firm, order: await unpaidOrder(t, firm, [file.id], 'certified', { reference: 'M-17' }) };
};

it('lists the orders, keeps their statuses current without a reload, and stays signed in across one', async () => {
  const { firm, order } = await firmWithOrder();
  const page = await signIn(firm.email);
  await waitForText(page, order.number);
  expect(await pageText(page)).toContain('Pending payment');
  await checkScreen(t, page, 'portal-orders');

  // A change made elsewhere shows up by polling; the page is the same document (no reload).
  await page.evaluate('window.unchanged = true');
  expect((await t.gql(CancelOrderDocument, { id: order.id }, firm.key)).errors).toBeUndefined();
  await waitForText(page, 'Cancelled');
  expect(await page.evaluate('window.unchanged')).toBe(true);

  const token = String(await page.evaluate('sessionStorage.getItem("portal.session")'));
  expect(token).toMatch(/^ltk_session_/);
  await page.reload({ waitUntil: 'load' });
  await waitForText(page, order.number);
  expect(await page.evaluate('localStorage.length')).toBe(0);
  // Signed out on another page of the tab, this page restored from the back-forward cache shows nothing it showed.
  await page.evaluate(
    'sessionStorage.removeItem("portal.session"), dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }))',
  );
  // At once, not at the list's next poll (a page that does not poll would have kept showing it).
  await byRole(page, 'button', 'Send code', 1000);
  expect(await pageText(page)).not.toContain(order.number);
  await page.close();
}, 120_000);

it('shows 25 orders, then the next ones on "Show more orders", every order reachable', async () => {
  const firm = await createApprovedAccount(t, staff);
  const { id: fileId } = await uploadFile(t, firm.key, await docx({ paragraphs: [words(20)] }), 'many.docx');
  const numbers: string[] = [];
  for (let i = 0; i < 27; i++) numbers.push((await unpaidOrder(t, firm, [fileId])).number);
  const page = await signIn(firm.email);
  await waitForText(page, numbers[26]);
  expect(await pageText(page)).not.toContain(numbers[0]);
  await checkScreen(t, page, 'portal-orders-more');
  await press(page, 'Show more orders');
  await waitForText(page, numbers[0]);
  expect(await page.$$eval('a[href^="/portal/orders/"]', (links) => links.length)).toBe(27);
  expect(await page.$('::-p-aria([name="Show more orders"][role="button"])')).toBeNull();
  await page.close();
}, 120_000);

it('orders a certified translation: upload with counts, languages, add-ons, quote, convert and pay', async () => {
  const firm = await createApprovedAccount(t, staff);
  const page = await signIn(firm.email, 390);
  await press(page, 'Order a translation', 'link');
  await byRole(page, 'heading', 'Order a translation');

  // A quote without documents or languages is refused beside the fields, in words.
  await press(page, 'Get quote');
  await waitForText(page, 'Upload at least one document first.');
  await page.waitForSelector('select[aria-invalid="true"]');
  expect(await pageText(page)).not.toMatch(/fileIds|sourceLanguage|file ids/i);
  await checkScreen(t, page, 'portal-order-refused');

  // One file picked with "Upload", one dropped on the drop zone; each shows its progress while it is uploaded (the
  // uploads held, as a slow line would hold them, until both bars were seen).
  const dir = t.config.dataDir;
  await writeFile(join(dir, 'contract.pdf'), await pdf([words(400)]));
  const release = holdRequests(page, isUpload);
  await chooseFiles(page, 'Upload', [join(dir, 'contract.pdf')]);
  await dropFile(page, 'scan.pdf', await textlessPdf(2));
  await byRole(page, 'progressbar', 'Uploading contract.pdf');
  await byRole(page, 'progressbar', 'Uploading scan.pdf');
  await checkScreen(t, page, 'portal-uploading');
  // A quote asked for while documents upload would leave them out: the person is asked to wait.
  await press(page, 'Get quote');
  await waitForText(page, 'Wait until every document has uploaded, then get the quote.');
  release();
  await waitForText(page, '400 words', 30_000);
  await waitForText(page, '2 pages, 2 scanned', 30_000);
  expect(await pageText(page)).not.toContain('Upload at least one document first.');
  expect(await page.$$('progress')).toHaveLength(0);

  await fill(page, 'Search source languages', 'germ', 'searchbox');
  await (await byRole(page, 'combobox', 'Source language')).select('de');
  await (await byRole(page, 'combobox', 'Target language')).select('en');
  // The scan could not be counted, so the form asks how many pages to translate in all, in whole pages.
  await fill(page, 'Pages to translate', '1.5', 'spinbutton');
  await press(page, 'Get quote');
  await waitForText(page, 'Write a whole number of pages or words, such as 3.');
  expect(await pageText(page)).not.toContain('Int cannot represent');
  await fill(page, 'Pages to translate', '3', 'spinbutton');
  await press(page, 'Mailed hard copy: $14.95 a copy', 'checkbox');
  await fill(page, 'Copies of mailed hard copy', '2', 'spinbutton');
  await fill(page, 'Name', 'Smith & Partners LLP');
  await fill(page, 'Address', '1 Main Street');
  await fill(page, 'City', 'Springfield');
  await fill(page, 'Postal code', '12345');
  await fill(page, 'Country (two letters)', 'US');
  await fill(page, 'Your reference', 'PO-4471');
  await press(page, 'Get quote');
  await byRole(page, 'heading', 'Your quote');
  // Three pages of text and the two scanned ones, each billed (D29); two hard copies.
  expect(await pageText(page)).toContain('5 pages × $9.90 = $49.50');
  expect(await pageText(page)).toContain('2 × $14.95 = $29.90');
  await checkScreen(t, page, 'portal-quote');
  // Changed after its quote, the form shows no quote (nor its Convert) until it is priced again.
  await (await byRole(page, 'combobox', 'Target language')).select('fr');
  await waitForText(page, 'The order changed since its quote');
  expect(await page.$('::-p-aria([name="Convert"][role="button"])')).toBeNull();
  await (await byRole(page, 'combobox', 'Target language')).select('en');
  await press(page, 'Get quote');
  await byRole(page, 'heading', 'Your quote');
  expect(await pageText(page)).not.toContain('The order changed since its quote');
  await press(page, 'Convert');
  await payAtCheckout(t, b, page);
  await waitForText(page, 'Thank you: the payment went through.');
  expect(new URL(page.url()).pathname).toMatch(/^\/portal\/orders\//);
  await page.close();
}, 180_000);

it('offers only the languages and add-ons the chosen service can be delivered with', async () => {
  const firm = await createApprovedAccount(t, staff);
  const catalog = (await t.gql(LanguagesDocument, {})).data!.languages;
  const deliverable = (service: ServiceType) =>
    catalog.filter((language) => language.services.includes(service)).map((language) => language.code);
  const page = await signIn(firm.email);
  await press(page, 'Order a translation', 'link');
  await byRole(page, 'heading', 'Order a translation');
  const offered = async () => ({
    source: await languageOptions(page, 'Source language'),
    target: await languageOptions(page, 'Target language'),
  });

  // Certified: every language of the catalog; standard (machine) translation: those the engine translates, fewer.
  const certified = deliverable('CERTIFIED');
  const standard = deliverable('STANDARD');
  expect(standard.length).toBeGreaterThan(0);
  expect(certified).toEqual(expect.arrayContaining(standard));
  expect(certified.length).toBeGreaterThan(standard.length);
  expect(await offered()).toEqual({ source: certified, target: certified });
  // Notarization is for certified translations (D8): ticked, then let go with the standard service and said why,
  // rather than refused after "Get quote".
  const notarization = `document.querySelector('input[value="notarization"]')`;
  await press(page, 'Notarization: $0.00', 'checkbox');
  await press(page, 'Standard translation: $0.01 a word', 'radio');
  await waitForText(page, 'Only with a certified translation.');
  expect(await page.evaluate(`[${notarization}.checked, ${notarization}.disabled]`)).toEqual([false, true]);
  await checkScreen(t, page, 'portal-standard-addons');
  await page.waitForFunction(
    `document.querySelector('select[name="sourceLanguage"]').options.length === ${standard.length + 1}`,
  );
  expect(await offered()).toEqual({ source: standard, target: standard });
  await press(page, 'Certified translation: $9.90 a page', 'radio');
  await page.waitForFunction(
    `document.querySelector('select[name="sourceLanguage"]').options.length === ${certified.length + 1}`,
  );
  expect(await offered()).toEqual({ source: certified, target: certified });
  expect(await page.evaluate(`${notarization}.disabled`)).toBe(false);
  expect(await pageText(page)).not.toContain('Only with a certified translation.');
  await page.close();
}, 60_000);

it('takes a paste longer than a field takes, says by how much beside it, and shows the refusal there', async () => {
  const firm = await createApprovedAccount(t, staff);
  const page = await signIn(firm.email, 390);
  await press(page, 'Order a translation', 'link');
  await byRole(page, 'heading', 'Order a translation');
  const paste = async (label: string, text: string) => {
    await (await byRole(page, 'textbox', label)).focus();
    await page.keyboard.sendCharacter(text);
  };
  const valueOf = (name: string) => page.evaluate(`document.querySelector('[name="${name}"]').value`);
  await waitForText(page, '2,000 of 2,000 characters left.');
  await paste('Your reference', 'Matter 12');
  await waitForText(page, '246 of 255 characters left.');

  // Pasted whole, not cut at the limit: the count says by how much it is too long, the field marked, until it fits.
  const instructions = `${words(400)} and the end.`;
  await paste('Instructions to the translator', instructions);
  expect(await valueOf('instructions')).toBe(instructions);
  await waitForText(page, `${[...instructions].length - 2000} characters too many: at most 2,000.`);
  await page.waitForSelector('textarea[name="instructions"][aria-invalid="true"]');
  // The field is described by its count, so a screen reader on it hears why it is invalid, not only that it is.
  const description = await page.evaluate(
    `document.querySelector('textarea[name="instructions"]').getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id).textContent).join(' ')`,
  );
  expect(description).toContain('characters too many: at most 2,000.');
  const order = 'PO-'.padEnd(70, '7');
  await paste('Purchase order', order);
  expect(await valueOf('purchaseOrder')).toBe(order);
  await waitForText(page, '6 characters too many: at most 64.');
  await checkScreen(t, page, 'portal-text-too-long');

  // Sent as it is, the service's refusal, naming the limit, is beside each field, the text kept.
  await press(page, 'Get quote');
  await waitForText(page, 'must not be greater than 2000 characters');
  await waitForText(page, 'must not be greater than 64 characters');
  expect(await valueOf('instructions')).toBe(instructions);
  await page.close();
}, 60_000);

it('follows an order: facts, timeline, messages with the desk, downloads, verification and a revision', async () => {
  const firm = await createApprovedAccount(t, staff);
  const source = (await uploadFile(t, firm.key, await docx({ paragraphs: ['Poder notarial.'] }), 'poder.docx')).id;
  const id = await paidOrder(t, firm, [source], 'certified', {
    reference: 'Müller v. Stadt',
    purchase_order: 'PO-2291',
    instructions: 'Names as in the passport: Jürgen Müller.\nKeep the seal described in brackets.',
    addons: [{ code: 'hard_copy', quantity: 2 }],
    shipping_address: {
      name: 'Smith & Partners LLP',
      line1: '100 Court Street',
      city: 'Springfield',
      postal_code: '62701',
      country: 'US',
    },
  });
  await waitForStatus(t, firm, id, 'in_review');
  const view = (await t.gql(StaffOrderDocument, { id }, desk)).data!.staffOrder!;
  const translation = view.files.find((file) => file.type === 'TRANSLATION')!;
  expect((await t.gql(ApproveTranslationDocument, { fileId: translation.id }, desk)).errors).toBeUndefined();
  expect((await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, desk)).errors).toBeUndefined();
  const shipped = { id, carrier: 'UPS', trackingNumber: '1Z999AA10123456784' };
  expect((await t.gql(MarkShippedDocument, shipped, desk)).errors).toBeUndefined();
  await t.gql(PostStaffOrderMessageDocument, { orderId: id, text: 'Your translation is ready.' }, desk);

  const page = await signIn(firm.email);
  await press(page, view.number, 'link');
  await byRole(page, 'heading', `Order ${view.number}`);
  await waitForText(page, 'Your translation is ready.');
  const text = await pageText(page);
  expect(text).toContain('Completed');
  // What the order was placed with, the instructions with their line break as written.
  expect(text).toContain('Names as in the passport: Jürgen Müller.\nKeep the seal described in brackets.');
  expect(text).toContain('PO-2291');
  expect(text).toContain('Smith & Partners LLP, 100 Court Street, 62701 Springfield, US');
  // The timeline: each step of the order in turn, at the moment it happened.
  const timeline = (await page.$$eval('section[aria-labelledby="timeline"] li', (entries) =>
    entries.map((entry) => [entry.querySelector('time')!.getAttribute('datetime')!, entry.lastChild!.textContent!]),
  )) as [string, string][];
  expect(timeline.map(([, step]) => step)).toEqual([
    'Placed',
    'Paid',
    'Completed',
    'Hard copies sent by UPS, 1Z999AA10123456784',
  ]);
  const moments = timeline.map(([at]) => Date.parse(at));
  expect(moments).toEqual([...moments].sort((a, b) => a - b));

  await fill(page, 'Message', 'Thank you, one question about page 2.');
  await press(page, 'Send message');
  await waitForText(page, 'one question about page 2');
  const messages = (await t.gql(StaffOrderMessagesDocument, { id }, desk)).data;
  expect(JSON.stringify(messages)).toContain('one question about page 2');

  const downloads = await page.$$eval('a[aria-label^="Download "]', (links) =>
    links.map((link) => [link.getAttribute('aria-label'), link.getAttribute('href')]),
  );
  expect(downloads.map(([name]) => name)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^Download poder\.en\./), expect.stringMatching(/certificate/i)]),
  );
  for (const [, href] of downloads) await t.rest.raw().get(href!.replace(t.config.appUrl, '')).expect(200);
  const verify = await byRole(page, 'link', 'open its verification page');
  const verifyUrl = String(await verify.evaluate((link) => link.getAttribute('href')));
  await t.rest.raw().get(new URL(verifyUrl).pathname).expect(200);
  await checkScreen(t, page, 'portal-order');

  // Markup from the desk is shown as the text it is, arriving by the page's polling.
  await t.gql(PostStaffOrderMessageDocument, { orderId: id, text: MARKUP_TEXT }, desk);
  await waitForText(page, MARKUP_TEXT, 15_000);
  expect(await markupShown(page, 'section[aria-labelledby="messages"]')).toEqual({ literally: true, elements: [] });

  // The message box takes what the service does (4,000 characters), and the service's refusal of more is beside it.
  const long = `${words(793)} and the end of it.`;
  await (await byRole(page, 'textbox', 'Message')).focus();
  await page.keyboard.sendCharacter(long);
  await press(page, 'Send message');
  await waitForText(page, 'word and the end of it.');
  const sent = (await t.gql(StaffOrderMessagesDocument, { id }, desk)).data!.staffOrder!.messages.items;
  expect(sent.map((message) => message.text)).toContain(long);
  await (await byRole(page, 'textbox', 'Message')).focus();
  await page.keyboard.sendCharacter(`${long} ${words(4)}`);
  await press(page, 'Send message');
  await page.waitForSelector('textarea[name="text"][aria-invalid="true"]');
  await waitForText(page, 'must not be greater than 4000 characters');

  await fill(page, 'What should be revised', 'The name on page 1 is spelled as on the passport: Jürgen.');
  await press(page, 'Request revision');
  await waitForText(page, 'is open');
  // Read again, the order lists its revision, a link to it with its status; no second one is offered while it is
  // open (D30).
  await page.reload({ waitUntil: 'load' });
  await byRole(page, 'heading', 'Revisions');
  const revision = await page.$eval('#revision + ul a', (link) => link.textContent ?? '');
  expect(revision).toMatch(/^LT-/);
  await waitForText(page, `Revision ${revision}: In review`);
  await waitForText(page, `Revision ${revision} is in progress; another can be asked for once it is finished.`);
  expect(await controlsShown(page, [['button', 'Request revision']])).toEqual([]);

  // Once the desk cancels it another may be asked for; a colleague asking first, the portal's request is refused,
  // and the reason typed stays with the refusal beside it, even once the page, read again, offers no request.
  const [first] = (await t.rest.get(`/api/v1/orders/${id}`, firm.key).expect(200)).body.data.revisions;
  expect(
    (await t.gql(StaffCancelOrderDocument, { id: first.id, reason: 'Asked by phone' }, desk)).errors,
  ).toBeUndefined();
  await page.reload({ waitUntil: 'load' });
  const reason = 'Page 3: the seal is described twice.';
  await fill(page, 'What should be revised', reason);
  // The page's polls wait until the refusal is shown, as a slow network would hold them.
  const releasePolls = holdOperation(page, 'PortalOrderMark');
  await t.rest.post(`/api/v1/orders/${id}/revisions`, { reason: 'Asked by a colleague.' }, firm.key).expect(201);
  await press(page, 'Request revision');
  await waitForText(page, 'A revision of this order is already open');
  releasePolls();
  await waitForText(page, 'is in progress; another can be asked for once it is finished.');
  expect(await page.evaluate(`document.querySelector('textarea[name="reason"]').value`)).toBe(reason);
  await waitForText(page, 'A revision of this order is already open');
  await checkScreen(t, page, 'portal-revision-refused');
  await page.close();
}, 180_000);

it('shows a viewer no order button; an admin invites, changes roles, removes, sets retention and regenerates the key by e-mail only', async () => {
  const firm: TestAccount = await createApprovedAccount(t, staff);
  const admin = await signIn(firm.email);
  await press(admin, 'People and settings', 'link');
  const invite = async (name: string, email: string) => {
    await fill(admin, 'Name', name);
    await fill(admin, 'E-mail', email);
    await (await byRole(admin, 'combobox', 'Role')).select('MEMBER');
    await press(admin, 'Invite');
    await waitForText(admin, `${name} was invited by e-mail.`);
  };
  const email = `vera-${Date.now().toString(36)}@example.test`;
  await invite('Vera Viewer', email);
  await invite('Rita Leaving', `rita-${Date.now().toString(36)}@example.test`);
  // The admin's own row has no role or remove control: a slip there would lock them out.
  await byRole(admin, 'button', 'Remove Rita Leaving');
  expect(await admin.$$eval('button[aria-label^="Remove "]', (all) => all.map((b) => b.textContent))).toEqual([
    'Remove',
    'Remove',
  ]);

  await (await byRole(admin, 'combobox', 'Role of Vera Viewer')).select('VIEWER');
  await press(admin, 'Save role of Vera Viewer');
  await waitForText(admin, 'Vera Viewer is now viewer.');
  await press(admin, 'Remove Rita Leaving');
  await press(admin, 'Remove Rita Leaving now');
  await waitForText(admin, 'Rita Leaving was removed.');
  // The people of an account are a member's to read, so the admin's own session asks.
  const session = String(await admin.evaluate('sessionStorage.getItem("portal.session")'));
  const people = (await t.gql(MembersDocument, { perPage: 10 }, session)).data!.members.items;
  expect(people.find((p) => p.name === 'Vera Viewer')?.role).toBe('VIEWER');
  expect(people.map((p) => p.name)).not.toContain('Rita Leaving');
  await admin.waitForFunction(`!document.querySelector('table').innerText.includes('Rita Leaving')`);

  // Retention: said in words; the service's refusal of a bad period beside the field; keeping until asked.
  await waitForText(admin, 'deleted 90 days after it is completed or cancelled');
  await fill(admin, 'Days to keep documents', '0', 'spinbutton');
  await press(admin, 'Save retention');
  await admin.waitForSelector('input[name="days"][aria-invalid="true"]');
  await fill(admin, 'Days to keep documents', '30', 'spinbutton');
  await press(admin, 'Save retention');
  await waitForText(admin, 'deleted 30 days after it is completed or cancelled');
  expect((await t.gql(ViewerDocument, {}, firm.key)).data!.me.retentionDays).toBe(30);
  await press(admin, 'Until we delete them', 'radio');
  await press(admin, 'Save retention');
  await waitForText(admin, 'kept until an admin deletes them');
  expect((await t.gql(ViewerDocument, {}, firm.key)).data!.me.retentionDays).toBeNull();
  await checkScreen(t, admin, 'portal-people');

  await press(admin, 'Regenerate API key');
  await press(admin, 'Regenerate now');
  await waitForText(admin, `A new key was e-mailed to ${firm.email}`);
  const key = new RegExp(KEY_PATTERN.source);
  expect(await pageText(admin)).not.toMatch(key);
  const mails = (await t.gql(SentEmailsDocument, { to: firm.email, perPage: 50 }, staff)).data!.sentEmails.items;
  expect(mails.filter((mail) => key.test(mail.text ?? ''))).toHaveLength(2);
  await admin.close();

  const viewer = await signIn(email);
  expect(await pageText(viewer)).toContain('Vera Viewer (viewer)');
  expect(await viewer.$('::-p-aria([name="Order a translation"][role="link"])')).toBeNull();
  await viewer.goto(`${b.base}/portal/new`, { waitUntil: 'load' });
  await byRole(viewer, 'heading', 'Not found');
  await viewer.close();
}, 120_000);

it('requests an interpreter in the person’s own time zone, pays once confirmed, and cancels another', async () => {
  const firm = await createApprovedAccount(t, staff);
  const page = await signIn(firm.email);
  await page.emulateTimezone('America/New_York');
  await press(page, 'Request an interpreter', 'link');
  await byRole(page, 'heading', 'Request an interpreter');
  await (await byRole(page, 'combobox', 'Source language')).select('es');
  await (await byRole(page, 'combobox', 'Target language')).select('en');
  const year = new Date().getUTCFullYear() + 1;
  // The value setter React watches, then the event it listens for: what typing into the date picker does.
  const start = (value: string) =>
    page.evaluate(`{
      const input = document.querySelector('input[name="scheduledAt"]');
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, '${value}');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }`);
  await fill(page, "Where (an address, or the video link's details)", '1 Court Street, Boston');
  // 02:30 on the night New York's clocks go forward does not exist: the person is asked, never moved to 03:30.
  await start('2027-03-14T02:30');
  await press(page, 'Request interpreter');
  await waitForText(page, 'This time does not exist in America/New_York: the clocks change then.');
  await start(`${year}-01-15T10:00`);
  expect(await pageText(page)).toContain('your time, America/New_York');
  await checkScreen(t, page, 'portal-interpreter');
  await press(page, 'Request interpreter');
  await waitForText(page, 'is requested');
  await press(page, await page.$eval('.done a', (link) => link.textContent ?? ''), 'link');
  await waitForText(page, 'Not confirmed yet');
  // The start as the person wrote it, UTC beside it (D29).
  await waitForText(page, `${year}-01-15 10:00 UTC-05:00 (${year}-01-15 15:00 UTC), 2 h`);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const booking = (await t.gql(StaffInterpretationBookingDocument, { id }, desk)).data!.staffInterpretationBooking!;
  expect(Date.parse(booking.scheduledAt)).toBe(Date.parse(`${year}-01-15T15:00:00Z`));

  expect(
    (await t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'Ines Interpreter' }, desk)).errors,
  ).toBeUndefined();
  await page.reload({ waitUntil: 'load' });
  await waitForText(page, 'Ines Interpreter');
  await checkScreen(t, page, 'portal-booking');
  await payAtCheckout(t, b, page);
  await waitForText(page, 'Thank you: the payment went through.');
  await waitForText(page, 'Confirmed');
  // Written in the person's offset, the booking shows its cancellation deadlines there, UTC beside them (D29, D32).
  await waitForText(
    page,
    `Cancellation once paid: refunded in full by ${year}-01-13 10:00 UTC-05:00 (${year}-01-13 15:00 UTC); ` +
      `50% refunded by ${year}-01-14 10:00 UTC-05:00 (${year}-01-14 15:00 UTC); nothing refunded after that.`,
  );
  await checkScreen(t, page, 'portal-booking-paid');

  const other = await requestBooking(t, firm.key);
  await page.goto(`${b.base}/portal/bookings/${other.id}`, { waitUntil: 'load' });
  // Asked once more, the focus on the act that replaced the button; "Keep the booking" goes back.
  await press(page, 'Cancel booking');
  await byRole(page, 'button', 'Keep the booking');
  expect(await page.evaluate('document.activeElement.textContent')).toBe('Cancel booking now');
  await press(page, 'Keep the booking');
  await press(page, 'Cancel booking');
  await press(page, 'Cancel booking now');
  await waitForText(page, 'The booking was cancelled; nothing was charged.');
  await waitForText(page, 'Cancelled');
  await page.close();
}, 180_000);

it('keeps the bookings in the list current without a reload, and offers no cancel once a booking is paid', async () => {
  const firm = await createApprovedAccount(t, staff);
  const booking = await requestBooking(t, firm.key);
  const page = await signIn(firm.email);
  await byRole(page, 'link', booking.number);
  await waitForText(page, 'Requested');

  // The desk confirms an interpreter and the client pays elsewhere: the list follows by polling, the same document.
  await page.evaluate('window.unchanged = true');
  const confirm = { id: booking.id, interpreterName: 'Ines Interpreter' };
  expect((await t.gql(ConfirmInterpretationAvailabilityDocument, confirm, desk)).errors).toBeUndefined();
  await waitForText(page, 'Awaiting payment');
  await payBookingCheckout(t, booking.id, firm.key);
  await waitForText(page, 'Confirmed');
  expect(await page.evaluate('window.unchanged')).toBe(true);

  // Paid, it is the desk's to cancel under the deadlines (D32): the page says so and draws no button to be refused.
  await press(page, booking.number, 'link');
  await byRole(page, 'heading', `Booking ${booking.number}`);
  await waitForText(page, 'A paid booking is cancelled by our desk');
  expect(await controlsShown(page, [['button', 'Cancel booking']])).toEqual([]);
  const refused = await t.gql(CancelInterpretationBookingDocument, { id: booking.id }, firm.key);
  expect(refused.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  await page.close();
}, 120_000);

it('shows the sign-in screen, at each step and refused, with no serious axe finding or sideways scrolling', async () => {
  const firm = await createApprovedAccount(t, staff);
  const page = await offlinePage(b, 390);
  await page.goto(`${b.base}/portal`, { waitUntil: 'load' });
  await byRole(page, 'textbox', 'E-mail');
  await checkScreen(t, page, 'portal-sign-in');
  await fill(page, 'E-mail', firm.email);
  await press(page, 'Send code');
  await byRole(page, 'textbox', 'Code');
  await checkScreen(t, page, 'portal-sign-in-code');
  await fill(page, 'Code', '000000');
  await press(page, 'Sign in');
  await page.waitForSelector('input[name="code"][aria-invalid="true"], [role="alert"]');
  await checkScreen(t, page, 'portal-sign-in-refused');
  await page.close();
}, 60_000);

it("lets an admin delete a finished order's documents from its page, asked once more; its files then answer 410", async () => {
  const firm = await createApprovedAccount(t, staff);
  const source = (await uploadFile(t, firm.key, await docx({ paragraphs: [words(40)] }), 'lease.docx')).id;
  const id = await paidOrder(t, firm, [source]);
  const completed = await waitForStatus(t, firm, id, 'completed');
  const page = await signInToPortal(b, firm.email);
  await page.goto(`${b.base}/portal/orders/${id}`, { waitUntil: 'load' });
  await press(page, 'Delete documents');
  await byRole(page, 'group', "Delete this order's documents?");
  // The focus moved to the act that replaced the button (D35), so a keyboard's place is kept.
  expect(await page.evaluate('document.activeElement.textContent')).toBe('Delete documents now');
  await press(page, 'Keep them');
  expect((await t.rest.get(`/api/v1/orders/${id}`, firm.key).expect(200)).body.data.documents_deleted_at).toBeNull();
  await press(page, 'Delete documents');
  await press(page, 'Delete documents now');
  await waitForText(page, 'The documents were deleted');
  await waitForText(page, 'These documents were deleted');
  expect(await pageText(page)).not.toContain('Request revision');
  await checkScreen(t, page, 'portal-documents-deleted');
  const after = (await t.rest.get(`/api/v1/orders/${id}`, firm.key).expect(200)).body.data;
  expect(after.documents_deleted_at).not.toBeNull();
  const translation = (completed.files as { type: string; download_url: string }[]).find(
    (file) => file.type === 'translation',
  )!;
  await t.rest
    .raw()
    .get(new URL(translation.download_url).pathname + new URL(translation.download_url).search)
    .expect(410);
  await page.close();
});
