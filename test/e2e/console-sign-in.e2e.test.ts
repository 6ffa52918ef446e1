import { StaffMeDocument } from '../graphql/generated';
import {
  byRole,
  checkScreen,
  codeFromOutbox,
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
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The staff console's door (docs/decisions.md D34, D28) in a real browser with the network cut off: a desk person
 * asks for a code, reads it in the sandbox outbox, signs in, and signs out; the session lives in the tab only.
 */
let t: TestApp;
let b: BrowserSession;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  b = await openBrowser(t);
}, 60_000);
afterAll(async () => {
  await b?.close();
  await t?.close();
});
afterEach(() => expectClean(b));

it('signs a desk person in with the e-mailed code from the sandbox outbox, and out again', async () => {
  const desk = await createStaffMember(t, { name: 'Dana Desk' });
  const page = await offlinePage(b);
  await page.goto(`${b.base}/console`, { waitUntil: 'load' });
  await byRole(page, 'heading', 'Staff console');
  await checkScreen(t, page, 'console-sign-in');

  await signInThroughPage(b, page, 'console', desk.email);
  await byRole(page, 'heading', 'Orders');
  expect(await pageText(page)).toContain('Dana Desk (desk)');
  await checkScreen(t, page, 'console-orders');

  // The session is the tab's: in sessionStorage, never in a cookie or localStorage.
  const token = String(await page.evaluate('sessionStorage.getItem("console.session")'));
  expect(token).toMatch(/^ltk_session_/);
  expect(await page.evaluate('localStorage.length')).toBe(0);
  expect(await page.browserContext().cookies()).toEqual([]);
  expect((await t.gql(StaffMeDocument, {}, token)).data?.staffMe.name).toBe('Dana Desk');

  // A reload keeps the tab signed in; "Sign out" ends the session on the service too.
  await page.reload({ waitUntil: 'load' });
  await byRole(page, 'heading', 'Orders');
  await press(page, 'Sign out');
  await byRole(page, 'button', 'Send code');
  expect(await page.evaluate('sessionStorage.length')).toBe(0);
  expect((await t.gql(StaffMeDocument, {}, token)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  await page.close();
}, 90_000);

it('shows a wrong code beside the code field and refuses a client member the console', async () => {
  const staff = await createStaffToken(t);
  const firm = await createApprovedAccount(t, staff);
  const page = await offlinePage(b);
  await page.goto(`${b.base}/console`, { waitUntil: 'load' });
  await fill(page, 'E-mail', firm.email);
  await press(page, 'Send code');
  await fill(page, 'Code', '000000');
  await press(page, 'Sign in');
  await page.waitForSelector('input[name="code"][aria-invalid="true"]');
  await checkScreen(t, page, 'console-sign-in-refused');

  await fill(page, 'Code', await codeFromOutbox(b, firm.email));
  await press(page, 'Sign in');
  await waitForText(page, 'This console is for the operator’s staff');
  expect(await page.evaluate('sessionStorage.length')).toBe(0);
  await page.close();
}, 90_000);

it('serves the console with its own strict policy, and no outbox page in production', async () => {
  const answer = await t.rest.raw().get('/console/orders').expect(200);
  expect(answer.headers['content-security-policy']).toContain("script-src 'self';");
  expect(answer.headers['content-security-policy']).not.toContain('unsafe-inline');
  await t.rest
    .raw()
    .get('/console/assets/app.js')
    .expect(200)
    .expect('Content-Type', /javascript/);
  await t.rest.raw().get('/console/assets/missing.js').expect(404);
  await t.rest.raw().get('/sandbox/mail').expect(200).expect('Content-Type', /html/);

  const production = await startTestApp({ databaseOf: t, config: { env: 'production' } });
  try {
    await production.rest.raw().get('/sandbox/mail').expect(404);
    await production.rest.raw().get('/console').expect(200);
  } finally {
    await production.close();
  }
});
