import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  byRole,
  checkScreen,
  expectClean,
  fill,
  offlinePage,
  openBrowser,
  pageText,
  press,
  signInThroughPage,
  waitForText,
  type BrowserSession,
} from '../helpers/browser';
import { createStaffMember } from '../helpers/certified';
import { createPendingAccount, createStaffToken, keysMailedTo } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The console's admin screens in a real browser (docs/decisions.md D34, D28): "Approve account" e-mails the first
 * key, which then works on REST; a staff member is added and their role shown; the desk sees the accounts without
 * the admin's buttons and no staff screen.
 */
let t: TestApp;
let b: BrowserSession;
let staffToken: string;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  b = await openBrowser(t);
  staffToken = await createStaffToken(t);
}, 60_000);
afterAll(async () => {
  await b?.close();
  await t?.close();
});
afterEach(() => expectClean(b));

it('approves a pending account, whose e-mailed key then works, and adds a staff member', async () => {
  const pending = await createPendingAccount(t, staffToken);
  const admin = await createStaffMember(t, { role: StaffRole.ADMIN, name: 'Ada Admin' });
  const page = await offlinePage(b);
  await signInThroughPage(b, page, 'console', admin.email);
  await press(page, 'Accounts', 'link');
  await page.select('select[name="status"]', 'PENDING');
  await press(page, 'Filter');
  const card = await byRole(page, 'listitem', `Smith & Partners LLP (${pending.email})`);
  await checkScreen(t, page, 'console-accounts');
  await (await card.waitForSelector('::-p-aria([name="Approve account"][role="button"])'))!.click();
  await waitForText(page, 'Approved; the first key was e-mailed');
  const [key] = await keysMailedTo(t, staffToken, pending.email);
  await t.rest.get('/api/v1/orders', key).expect(200);

  await press(page, 'Staff', 'link');
  await byRole(page, 'heading', 'Staff');
  await fill(page, 'Name', 'Nina New');
  await fill(page, 'E-mail', 'not an e-mail');
  await press(page, 'Add staff member');
  await page.waitForSelector('input[name="email"][aria-invalid="true"]');
  await fill(page, 'E-mail', `nina-${Date.now()}@example.test`);
  await page.select('select[name="role"]', 'TRANSLATOR');
  await press(page, 'Add staff member');
  await waitForText(page, 'shown this once');
  await byRole(page, 'listitem', 'Nina New');
  expect(await pageText(page)).toMatch(/ltk_staff_/);
  await checkScreen(t, page, 'console-staff');
  await page.close();
}, 120_000);

it('shows the desk the accounts without the admin’s buttons, and no staff screen', async () => {
  await createPendingAccount(t, staffToken);
  const desk = await createStaffMember(t, { name: 'Dana Desk' });
  const page = await offlinePage(b);
  await signInThroughPage(b, page, 'console', desk.email);
  await press(page, 'Accounts', 'link');
  await waitForText(page, 'accounts');
  expect(await page.$$('::-p-aria([name="Approve account"][role="button"])')).toEqual([]);
  expect(await page.$$eval('nav a', (links) => links.map((link) => link.textContent))).toEqual([
    'Orders',
    'Bookings',
    'Accounts',
  ]);
  await page.close();
}, 60_000);
