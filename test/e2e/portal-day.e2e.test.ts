import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  ApproveTranslationDocument,
  AssignOrderDocument,
  AttachAsTranslatorDocument,
  CompleteCertifiedOrderDocument,
  ConfirmInterpretationAvailabilityDocument,
  RecordNotarizationDocument,
  StaffCancelOrderDocument,
  StaffOrderDocument,
  StaffOrderMessagesDocument,
} from '../graphql/generated';
import { byRole, checkScreen, choose, fill, offlinePage, pageText, press, waitForText } from '../helpers/browser';
import { requestBooking } from '../helpers/bookings';
import { createStaffMember, notarizationDetails } from '../helpers/certified';
import { docx, pdf, textlessPdf, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { unpaidOrder } from '../helpers/orders';
import { pollUntil } from '../helpers/poll';
import { uploadFile } from '../helpers/files';
import { chooseFiles, controlsShown, hrefOf, payAtCheckout, portalSuite, signInToPortal } from '../helpers/portal';

/**
 * A paralegal's day in the client portal (issue 37, docs/decisions.md D35), as one person lives it: sign in, upload a
 * contract and a scan, order it certified with notarization and two mailed copies, pay, follow the order while the
 * desk and a translator work on it (driven through the staff API), download the translation and the certificate,
 * open the verification page, message the desk and ask for a revision; then, as the account's admin, invite a
 * colleague who signs in as a viewer and is shown nothing that acts. Each screen is checked with axe and
 * photographed at phone and desktop width.
 */
const suite = portalSuite();
let desk: string;
beforeAll(async () => void (desk = await createStaffToken(suite.t, StaffRole.DESK)));

const staffOrder = async (id: string) => (await suite.t.gql(StaffOrderDocument, { id }, desk)).data!.staffOrder!;

it('a paralegal orders, pays, follows to completed, downloads, verifies, messages, asks for a revision and invites a viewer', async () => {
  const { t, b, staff } = suite;
  const firm = await createApprovedAccount(t, staff);
  const translator = await createStaffMember(t, { role: StaffRole.TRANSLATOR, name: 'Tomás Translator' });
  const page = await signInToPortal(b, firm.email);

  // The order: a contract whose text is counted and a scan whose pages are.
  await press(page, 'Order a translation', 'link');
  await byRole(page, 'heading', 'Order a translation');
  const dir = t.config.dataDir;
  await writeFile(join(dir, 'contract.pdf'), await pdf([words(250)]));
  await writeFile(join(dir, 'register.pdf'), await textlessPdf(1));
  await chooseFiles(page, 'Upload', [join(dir, 'contract.pdf'), join(dir, 'register.pdf')]);
  await waitForText(page, '250 words', 30_000);
  await waitForText(page, '1 page, 1 scanned', 30_000);
  await (await byRole(page, 'combobox', 'Source language')).select('de');
  await (await byRole(page, 'combobox', 'Target language')).select('en');
  await fill(page, 'Pages to translate', '1', 'spinbutton');
  await press(page, 'Notarization: $0.00', 'checkbox');
  await press(page, 'Mailed hard copy: $14.95 a copy', 'checkbox');
  await fill(page, 'Copies of mailed hard copy', '2', 'spinbutton');
  await fill(page, 'Name', 'Smith & Partners LLP');
  await fill(page, 'Address', '100 Court Street');
  await fill(page, 'City', 'Springfield');
  await fill(page, 'Postal code', '62701');
  await fill(page, 'Country (two letters)', 'US');
  await fill(page, 'Instructions to the translator', 'Names as in the passport: Jürgen Müller.', 'textbox');
  await fill(page, 'Your reference', 'Müller v. Stadt');
  await press(page, 'Get quote');
  await byRole(page, 'heading', 'Your quote');
  expect(await pageText(page)).toContain('2 × $14.95 = $29.90');
  await checkScreen(t, page, 'portal-day-quote');
  await press(page, 'Convert');
  await payAtCheckout(t, b, page);
  await waitForText(page, 'Thank you: the payment went through.');
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await waitForText(page, 'Processing');
  expect(await pageText(page)).toContain('Smith & Partners LLP, 100 Court Street, 62701 Springfield, US');
  await checkScreen(t, page, 'portal-day-paid');

  // The desk side: the engine drafts the contract, the translator types the scan, the desk approves the draft,
  // records the notarization and completes the order. The page follows by polling, without a reload.
  await page.evaluate('window.unchanged = true');
  const drafted = await pollUntil(
    () => staffOrder(id),
    (view) => view.files.some((file) => file.type === 'TRANSLATION'),
    { timeoutMs: 60_000, intervalMs: 250, failure: () => 'the engine never drafted the contract' },
  );
  const scan = drafted.files.find((file) => file.type === 'SOURCE' && file.name === 'register.pdf')!;
  const draft = drafted.files.find((file) => file.type === 'TRANSLATION')!;
  expect((await t.gql(AssignOrderDocument, { orderId: id, staffUserId: translator.id }, desk)).errors).toBeUndefined();
  const typed = await t.gqlUpload(
    AttachAsTranslatorDocument,
    { orderId: id, sourceFileId: scan.id },
    { content: await docx({ paragraphs: ['Commercial register extract.'] }), filename: 'register.en.docx' },
    { token: translator.token },
  );
  expect(typed.errors).toBeUndefined();
  await waitForText(page, 'In review', 20_000);
  expect((await t.gql(ApproveTranslationDocument, { fileId: draft.id }, desk)).errors).toBeUndefined();
  const notarized = await t.gql(RecordNotarizationDocument, { orderId: id, ...notarizationDetails() }, desk);
  expect(notarized.errors).toBeUndefined();
  expect((await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, desk)).errors).toBeUndefined();
  await waitForText(page, 'Completed', 20_000);
  expect(await page.evaluate('window.unchanged')).toBe(true);

  // Both translations and the certificate, each downloaded; the verification page opened.
  await byRole(page, 'link', 'open its verification page');
  const downloads = await page.$$eval('a[aria-label^="Download "]', (links) =>
    links.map((link) => link.getAttribute('aria-label')!),
  );
  expect(downloads).toEqual(
    expect.arrayContaining(['Download contract.en.pdf', 'Download register.en.docx', expect.stringMatching(/certif/i)]),
  );
  for (const name of downloads)
    await t.rest
      .raw()
      .get(await hrefOf(t, page, 'link', name))
      .expect(200);
  await checkScreen(t, page, 'portal-day-completed');
  const verifyUrl = await hrefOf(t, page, 'link', 'open its verification page');
  const verification = await offlinePage(b);
  await verification.goto(`${b.base}${verifyUrl}`, { waitUntil: 'load' });
  expect(await pageText(verification)).toContain(verifyUrl.split('/').pop()!);
  await verification.close();

  // A word with the desk, then a revision.
  await fill(page, 'Message', 'Thank you. Could the seal on page 1 be described?');
  await press(page, 'Send message');
  await waitForText(page, 'Could the seal on page 1 be described?');
  expect(JSON.stringify((await t.gql(StaffOrderMessagesDocument, { id }, desk)).data)).toContain('seal on page 1');
  await fill(page, 'What should be revised', 'The name on page 1 is Jürgen Müller, as in the passport.');
  await press(page, 'Request revision');
  await waitForText(page, 'is open');
  await checkScreen(t, page, 'portal-day-revision');
  // The desk cancels it, so the order offers a revision again: the viewer's check below then means something.
  const [revision] = (await t.rest.get(`/api/v1/orders/${id}`, firm.key).expect(200)).body.data.revisions;
  expect(
    (await t.gql(StaffCancelOrderDocument, { id: revision.id, reason: 'Asked by phone' }, desk)).errors,
  ).toBeUndefined();
  await page.reload({ waitUntil: 'load' });
  await waitForText(page, `${revision.number}: Cancelled`);
  await byRole(page, 'button', 'Request revision');

  // The number read in an e-mail opens the order, in any case; a number the firm has not, says so.
  const { number } = (await t.rest.get(`/api/v1/orders/${id}`, firm.key).expect(200)).body.data;
  await page.goto(`${b.base}/portal/orders/${number.toLowerCase()}`, { waitUntil: 'load' });
  await page.waitForFunction(`location.pathname === '/portal/orders/${id}'`);
  await byRole(page, 'heading', `Order ${number}`);
  await page.goto(`${b.base}/portal/orders/LT-0000-NOSUCH`, { waitUntil: 'load' });
  await waitForText(page, 'You have no order with this number.');

  // The day ends with a colleague invited to read along: as a viewer they are shown no control that acts, on an
  // order waiting for payment, the completed one, and a booking waiting for payment, each of which a member may act on.
  const source = (await uploadFile(t, firm.key, await docx({ paragraphs: [words(120)] }), 'affidavit.docx')).id;
  const unpaid = (await unpaidOrder(t, firm, [source], 'certified')).id;
  const booking = await requestBooking(t, firm.key);
  const confirm = { id: booking.id, interpreterName: 'Ines Interpreter' };
  expect((await t.gql(ConfirmInterpretationAvailabilityDocument, confirm, desk)).errors).toBeUndefined();
  await press(page, 'People and settings', 'link');
  await byRole(page, 'heading', 'People and settings');
  const colleague = `colleague-${Date.now().toString(36)}@example.test`;
  await fill(page, 'Name', 'Carla Colleague');
  await fill(page, 'E-mail', colleague);
  await choose(page, 'Role', 'VIEWER');
  await press(page, 'Invite');
  await waitForText(page, 'Carla Colleague was invited by e-mail.');
  await page.close();

  const viewer = await signInToPortal(b, colleague);
  expect(await pageText(viewer)).toContain('Carla Colleague (viewer)');
  expect(
    await controlsShown(viewer, [
      ['link', 'Order a translation'],
      ['link', 'Request an interpreter'],
    ]),
  ).toEqual([]);
  const acting: [string, string][] = [
    ['link', 'Pay'],
    ['button', 'Send message'],
    ['button', 'Request revision'],
    ['button', 'Cancel booking'],
    ['button', 'Delete documents'],
  ];
  for (const [path, shows] of [
    [`orders/${unpaid}`, 'Pending payment'],
    [`orders/${id}`, 'Could the seal on page 1 be described?'],
    [`bookings/${booking.id}`, 'Awaiting payment'],
  ]) {
    await viewer.goto(`${b.base}/portal/${path}`, { waitUntil: 'load' });
    await waitForText(viewer, shows);
    expect({ path, shown: await controlsShown(viewer, acting) }).toEqual({ path, shown: [] });
  }
  await checkScreen(t, viewer, 'portal-day-viewer');
  await viewer.close();
}, 300_000);
