import { StaffRole, StaffUser } from '../../src/domain/identity/staff-user.entity';
import { AllInterpretersDocument, InviteMemberDocument, SuspendAccountDocument } from '../graphql/generated';
import { byRole, checkScreen, choose, fill, pageText, press, waitForText } from '../helpers/browser';
import { createInterpreter } from '../helpers/bookings';
import { consoleSuite, signInToConsole } from '../helpers/console';
import { createApprovedAccount, createPendingAccount, createStaffToken, keysMailedTo } from '../helpers/fixtures';
import { signInAs, uniqueEmail } from '../helpers/members';

/**
 * The console's admin screens in a real browser (docs/decisions.md D34, D28): "Approve account" e-mails the first
 * key, which then works on REST; a staff member is added and their role shown; the desk sees the accounts without
 * the admin's buttons and no staff screen; an account's members are paged, however many it has.
 */
const suite = consoleSuite();
let staffToken: string;

beforeAll(async () => {
  staffToken = await createStaffToken(suite.t);
});

it('approves a pending account, whose e-mailed key then works, and adds a staff member, then deactivates them', async () => {
  const { t } = suite;
  const pending = await createPendingAccount(t, staffToken);
  const { page } = await signInToConsole(suite, { role: StaffRole.ADMIN, name: 'Ada Admin' });
  await press(page, 'Accounts', 'link');
  await choose(page, 'Status', 'PENDING');
  await press(page, 'Filter');
  const card = await byRole(page, 'listitem', `Smith & Partners LLP (${pending.email})`);
  await checkScreen(t, page, 'console-accounts');
  await (await card.waitForSelector('::-p-aria([name="Approve account"][role="button"])'))!.click();
  await waitForText(page, 'Approved; the first key was e-mailed');
  // The account leaves the "Pending" list, its card and button with it; the screen still says what was done.
  await page.waitForFunction(`!document.body.innerText.includes(${JSON.stringify(pending.email)})`);
  expect(await pageText(page)).toContain('Approved; the first key was e-mailed');
  await checkScreen(t, page, 'console-accounts-approved');
  const [key] = await keysMailedTo(t, staffToken, pending.email);
  await t.rest.get('/api/v1/orders', key).expect(200);

  // Suspended, the account is reinstated from its card, and its key works again.
  expect((await t.gql(SuspendAccountDocument, { id: pending.id }, staffToken)).errors).toBeUndefined();
  await t.rest.get('/api/v1/orders', key).expect(403);
  await choose(page, 'Status', 'SUSPENDED');
  await press(page, 'Filter');
  const suspended = await byRole(page, 'listitem', `Smith & Partners LLP (${pending.email})`);
  await (await suspended.waitForSelector('::-p-aria([name="Reinstate account"][role="button"])'))!.click();
  await waitForText(page, 'Reinstated; its key works again.');
  await t.rest.get('/api/v1/orders', key).expect(200);

  await press(page, 'Staff', 'link');
  await byRole(page, 'heading', 'Staff');
  await fill(page, 'Name', 'Nina New');
  await fill(page, 'E-mail', 'not an e-mail');
  await press(page, 'Add staff member');
  await page.waitForSelector('input[name="email"][aria-invalid="true"]');
  await fill(page, 'E-mail', `nina-${Date.now()}@example.test`);
  await choose(page, 'Role', 'TRANSLATOR');
  await press(page, 'Add staff member');
  await waitForText(page, 'shown this once');
  const nina = await byRole(page, 'listitem', 'Nina New');
  expect(await pageText(page)).toMatch(/ltk_staff_/);
  await checkScreen(t, page, 'console-staff');
  // Deactivating takes Nina's forms away; the screen still says what was done.
  await (await nina.waitForSelector('::-p-aria([name="Deactivate"][role="button"])'))!.click();
  await nina.waitForSelector('::-p-text(Deactivated)');
  await page.waitForFunction(`!document.querySelector('form[aria-label="Deactivate Nina New"]')`);
  expect(await pageText(page)).toContain('Deactivated; their sessions and token stop at once.');
  await page.close();
}, 120_000);

it('shows the desk the accounts without the admin’s buttons, and no staff screen', async () => {
  await createPendingAccount(suite.t, staffToken);
  const { page } = await signInToConsole(suite);
  await press(page, 'Accounts', 'link');
  await waitForText(page, 'accounts');
  expect(await page.$$('::-p-aria([name="Approve account"][role="button"])')).toEqual([]);
  expect(await page.$$eval('nav a', (links) => links.map((link) => link.textContent))).toEqual([
    'Orders',
    'Bookings',
    'Interpreters',
    'Accounts',
    'Invoices',
    'Your profile',
  ]);
  await page.close();
}, 60_000);

it('lets the desk add their own credentials, which completing a certified order asks of them', async () => {
  const { page, staff } = await signInToConsole(suite, { name: 'Dana Desk' });
  await press(page, 'Your profile', 'link');
  await byRole(page, 'heading', 'Your profile');
  await fill(page, 'Credentials (for certificates)', 'ATA-certified translator no. 300003');
  await press(page, 'Save profile');
  await waitForText(page, 'Profile saved.');
  await checkScreen(suite.t, page, 'console-own-profile');
  const saved = await suite.t.orm.em.fork().findOneOrFail(StaffUser, { id: staff.id });
  expect(saved.credentials).toBe('ATA-certified translator no. 300003');
  await page.close();
}, 60_000);

it('keeps an interpreter’s record (edit, deactivate, reactivate) and an account’s retention', async () => {
  const { t } = suite;
  await createInterpreter(t, staffToken, { name: 'Rita Records' });
  const firm = await createApprovedAccount(t, staffToken);
  const { page } = await signInToConsole(suite, { role: StaffRole.ADMIN, name: 'Ada Admin' });
  const active = async () =>
    (await t.gql(AllInterpretersDocument, { includeInactive: true }, staffToken)).data!.interpreters.items.find((i) =>
      i.name.startsWith('Rita'),
    );

  await press(page, 'Interpreters', 'link');
  const card = await byRole(page, 'listitem', 'Rita Records');
  await (await card.waitForSelector('summary'))!.click();
  await (await card.waitForSelector('::-p-aria([name="Court certified"][role="checkbox"])'))!.click();
  await press(page, 'Save interpreter');
  await waitForText(page, 'Interpreter saved.');
  await waitForText(page, 'Court certified');
  await press(page, 'Deactivate Rita Records');
  await byRole(page, 'button', 'Reactivate Rita Records');
  expect(await active()).toMatchObject({ active: false });
  await checkScreen(t, page, 'console-interpreters');
  await press(page, 'Reactivate Rita Records');
  await byRole(page, 'button', 'Deactivate Rita Records');
  // One success line at a time: the deactivation's is gone once the record is reactivated.
  expect(await pageText(page)).not.toContain('Interpreter deactivated.');
  expect(await active()).toMatchObject({ active: true });

  await press(page, 'Accounts', 'link');
  await fill(page, 'Search', firm.email, 'searchbox');
  await press(page, 'Filter');
  const account = await byRole(page, 'listitem', `Smith & Partners LLP (${firm.email})`);
  await (await account.waitForSelector('summary'))!.click();
  await fill(page, 'Days to keep documents', '0');
  await press(page, 'Save retention');
  await page.waitForSelector('input[name="days"][aria-invalid="true"]');
  // A letter O for a zero is said beside the field, and never keeps the documents for ever (an empty field would).
  await fill(page, 'Days to keep documents', '3O');
  await press(page, 'Save retention');
  await waitForText(page, 'Write a number, such as 30.');
  expect((await t.rest.get('/api/v1/me', firm.key).expect(200)).body.data.retention_days).toBe(90);
  await fill(page, 'Days to keep documents', '30');
  await press(page, 'Save retention');
  await waitForText(page, 'Retention saved.');
  const kept = await t.rest.get('/api/v1/me', firm.key).expect(200);
  expect(kept.body.data.retention_days).toBe(30);
  await page.close();
}, 120_000);

it('pages an account’s members: the first 25 with the total, then "Show more members"', async () => {
  const { t } = suite;
  const firm = await createApprovedAccount(t, staffToken);
  // The account's own e-mail is its first admin (D27); it invites 26 more through the API: 27, two pages of 25.
  const admin = await signInAs(t, staffToken, firm.email);
  for (let i = 1; i <= 26; i++) {
    const invited = await t.gql(
      InviteMemberDocument,
      { email: uniqueEmail(`member${i}`), name: `Member ${String(i).padStart(2, '0')}`, role: 'MEMBER' },
      admin,
    );
    expect(invited.errors).toBeUndefined();
  }
  const { page } = await signInToConsole(suite);
  await press(page, 'Accounts', 'link');
  await fill(page, 'Search', firm.email, 'searchbox');
  await press(page, 'Filter');
  const account = await byRole(page, 'listitem', `Smith & Partners LLP (${firm.email})`);
  await (await account.waitForSelector('summary'))!.click();
  await waitForText(page, 'Showing 25 of 27 members.');
  const members = () => account.$$eval('section[aria-label="Members"] li', (items) => items.length);
  expect(await members()).toBe(25);
  await checkScreen(t, page, 'console-account-members');
  await press(page, 'Show more members');
  await waitForText(page, '27 members.');
  // The second page's entries come once the service has answered.
  await page.waitForFunction(
    `[...document.querySelectorAll('section[aria-label="Members"] li')].filter((li) => li.textContent.includes('@')).length === 27`,
  );
  expect(await members()).toBe(27);
  // The focus goes on to the first member of the page added, where the button that had it is gone.
  expect(await page.evaluate('document.activeElement.textContent')).toMatch(/^Member \d\d \(/);
  expect(await page.evaluate('document.activeElement.tagName')).toBe('LI');
  // Every member once, none twice: the second page follows the first.
  const names = await account.$$eval('section[aria-label="Members"] li', (items) =>
    items.map((item) => item.textContent),
  );
  expect(new Set(names).size).toBe(27);
  expect(await page.$$('::-p-aria([name="Show more members"][role="button"])')).toEqual([]);
  await page.close();
}, 120_000);
