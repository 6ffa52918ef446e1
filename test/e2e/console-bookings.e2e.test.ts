import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  byRole,
  checkScreen,
  expectClean,
  fill,
  offlinePage,
  openBrowser,
  press,
  signInThroughPage,
  waitForText,
  type BrowserSession,
} from '../helpers/browser';
import { passStart, requestBooking } from '../helpers/bookings';
import { createStaffMember } from '../helpers/certified';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The console's bookings desk in a real browser (docs/decisions.md D34): the queue by status, a booking confirmed
 * with its interpreter (a refusal shown beside the field first), paid by the client, and completed once it started;
 * each result checked through REST as the client sees it. A translator is not shown the bookings at all.
 */
let t: TestApp;
let b: BrowserSession;
let firm: TestAccount;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  b = await openBrowser(t);
  firm = await createApprovedAccount(t, await createStaffToken(t));
}, 60_000);
afterAll(async () => {
  await b?.close();
  await t?.close();
});
afterEach(() => expectClean(b));

const clientView = async (id: string) =>
  (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, firm.key).expect(200)).body.data;

it('confirms a requested booking with its interpreter, and completes it once paid and started', async () => {
  const booking = await requestBooking(t, firm.key, { reference: 'Deposition Ruiz' });
  const desk = await createStaffMember(t, { name: 'Dana Desk' });
  const page = await offlinePage(b);
  await signInThroughPage(b, page, 'console', desk.email);
  await press(page, 'Bookings', 'link');
  await page.select('select[name="status"]', 'REQUESTED');
  await press(page, 'Filter');
  await (await byRole(page, 'link', booking.number)).click();
  await byRole(page, 'heading', `Booking ${booking.number} Requested`);

  await press(page, 'Confirm availability');
  await page.waitForSelector('input[name="interpreterName"][aria-invalid="true"]');
  await checkScreen(t, page, 'console-booking-refused');
  await fill(page, 'Interpreter', 'Inés Interpreter');
  await press(page, 'Confirm availability');
  await waitForText(page, 'Availability confirmed');
  const awaiting = await clientView(booking.id);
  expect(awaiting).toMatchObject({ status: 'awaiting_payment', interpreter_name: 'Inés Interpreter' });

  await t.rest
    .raw()
    .post(`${String(awaiting.payment.approval_url).replace(t.config.appUrl, '')}/pay`)
    .type('form')
    .send({})
    .expect(200);
  await passStart(t, booking.id);
  await page.reload({ waitUntil: 'load' });
  await press(page, 'Complete booking');
  await waitForText(page, 'Booking completed.');
  expect((await clientView(booking.id)).status).toBe('completed');
  await checkScreen(t, page, 'console-booking');
  await page.close();
}, 120_000);

it('shows a translator neither the bookings nor the desk moves on an order', async () => {
  const translator = await createStaffMember(t, { role: StaffRole.TRANSLATOR, name: 'Tom Translator' });
  const page = await offlinePage(b);
  await signInThroughPage(b, page, 'console', translator.email);
  await byRole(page, 'heading', 'Orders');
  expect(await page.$$eval('nav a', (links) => links.map((link) => link.textContent))).toEqual(['Orders']);
  await page.goto(`${b.base}/console/bookings`, { waitUntil: 'load' });
  await byRole(page, 'heading', 'Not found');
  await page.close();
}, 60_000);
