import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { byRole, checkScreen, codeFromOutbox, offlinePage, pageText, waitForText } from '../helpers/browser';
import { pdf, words } from '../helpers/documents';
import { createApprovedAccount } from '../helpers/fixtures';
import { activate, focused, tabTo } from '../helpers/keyboard';
import { memberSession, signInAs } from '../helpers/members';
import { hrefOf, portalSuite, signInToPortal } from '../helpers/portal';

/**
 * The client portal with the keyboard alone (docs/decisions.md D35): a person who uses no mouse signs in and orders a
 * certified translation up to the checkout's Pay button with Tab, Enter, Space and the arrow keys, and sees where
 * the focus is at every stop.
 */
const suite = portalSuite();

it('orders a translation from sign-in to checkout with the keyboard only, the focus visible throughout', async () => {
  const { t, b, staff } = suite;
  const firm = await createApprovedAccount(t, staff);
  const dir = t.config.dataDir;
  await writeFile(join(dir, 'affidavit.pdf'), await pdf([words(250)]));
  const page = await offlinePage(b, 390);
  await page.goto(`${b.base}/portal`, { waitUntil: 'load' });

  await tabTo(page, 'E-mail');
  await page.keyboard.type(firm.email);
  await page.keyboard.press('Enter');
  await byRole(page, 'textbox', 'Code');
  // The code field takes the focus as it appears.
  expect((await focused(page)).name).toBe('Code');
  await page.keyboard.type(await codeFromOutbox(b, firm.email));
  await page.keyboard.press('Enter');
  await byRole(page, 'heading', 'Orders');

  await activate(page, 'Order a translation');
  await byRole(page, 'heading', 'Order a translation');
  // Space on the Upload button opens the file chooser, as Enter or a click would.
  await tabTo(page, 'Upload');
  const [chooser] = await Promise.all([page.waitForFileChooser(), page.keyboard.press('Space')]);
  await chooser.accept([join(dir, 'affidavit.pdf')]);
  await waitForText(page, '250 words', 30_000);

  // The service's radio group with the arrow keys: standard and back to certified.
  await tabTo(page, 'Certified translation: $9.90 a page');
  await page.keyboard.press('ArrowDown');
  expect(await page.evaluate(`document.querySelector('input[value="STANDARD"]').checked`)).toBe(true);
  await page.keyboard.press('ArrowUp');
  expect((await focused(page)).name).toBe('Certified translation: $9.90 a page');

  // A language found by searching, then chosen in the narrowed list with the arrow keys.
  await tabTo(page, 'Search source languages');
  await page.keyboard.type('germ');
  await tabTo(page, 'Source language');
  await page.keyboard.press('ArrowDown');
  await tabTo(page, 'Search target languages');
  await page.keyboard.type('english');
  await tabTo(page, 'Target language');
  await page.keyboard.press('ArrowDown');
  // The first of each narrowed list (German of some region, English of some region).
  expect(await page.evaluate(`[...document.querySelectorAll('select')].map((s) => s.value)`)).toEqual([
    expect.stringMatching(/^de\b/),
    expect.stringMatching(/^en\b/),
  ]);

  await activate(page, 'Notarization: $0.00', 'Space');
  await tabTo(page, 'Your reference');
  await page.keyboard.type('Matter 12');
  await activate(page, 'Get quote');
  await byRole(page, 'heading', 'Your quote');
  expect(await pageText(page)).toContain('Notarization');
  await activate(page, 'Convert');
  await byRole(page, 'link', 'Pay');
  // The Convert button is gone: the focus went on to Pay, not back to the top of the page.
  expect(await focused(page)).toEqual({ name: 'Pay', tag: 'a', visible: true });

  // The link carries the test app's configured address, not the port it listens on: followed at the real one.
  await page.goto(`${b.base}${await hrefOf(t, page, 'link', 'Pay')}`, { waitUntil: 'load' });
  await tabTo(page, /^Pay \$/);
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.keyboard.press('Enter')]);
  await waitForText(page, 'Thank you: the payment went through.');
  expect(new URL(page.url()).pathname).toMatch(/^\/portal\/orders\//);
  await page.close();
}, 180_000);

it('asks once more in place of Remove and Regenerate API key: the focus on the act, back on the button, then on what was done', async () => {
  const { t, b, staff } = suite;
  const firm = await createApprovedAccount(t, staff);
  await memberSession(t, staff, await signInAs(t, staff, firm.email), 'MEMBER');
  const page = await signInToPortal(b, firm.email, 390);
  await activate(page, 'People and settings');
  await byRole(page, 'heading', 'People and settings');
  const button = (name: string) => ({ name, tag: 'button', visible: true });
  /**
   * Enter on `ask` puts the focus on `act`; the way back (`keep`) draws `ask` again with the focus on it, so Enter asks
   * again from where the person was; Enter on `act` does it, and the line saying `done` has the focus, the act's
   * button being gone.
   */
  const askOnceMore = async (ask: string, act: string, keep: string, done: string) => {
    await activate(page, ask);
    expect(await focused(page)).toEqual(button(act));
    await checkScreen(t, page, `portal-${ask.toLowerCase().replaceAll(' ', '-')}`);
    await activate(page, keep);
    expect(await focused(page)).toEqual(button(ask));
    await page.keyboard.press('Enter');
    expect(await focused(page)).toEqual(button(act));
    await page.keyboard.press('Enter');
    await waitForText(page, done);
    expect(await focused(page)).toEqual({ name: done, tag: 'p', visible: true });
  };
  await askOnceMore('Remove Pat member', 'Remove Pat member now', 'Keep', 'Pat member was removed.');
  await askOnceMore(
    'Regenerate API key',
    'Regenerate now',
    'Keep the current key',
    `A new key was e-mailed to ${firm.email}. The old one no longer works.`,
  );
  await page.close();
}, 120_000);
