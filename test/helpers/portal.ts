import type { Page, SerializedAXNode } from 'puppeteer-core';
import { byRole, expectClean, offlinePage, openBrowser, signInThroughPage, type BrowserSession } from './browser';
import { createStaffToken } from './fixtures';
import { startTestApp, type TestApp } from './test-app';

/** The client portal's steps a person takes in every test of it (docs/decisions.md D35). */

export interface PortalSuite {
  t: TestApp;
  b: BrowserSession;
  /** An admin staff token, to approve accounts and set their terms. */
  staff: string;
}

/**
 * A test file's app, browser and admin staff token, started before its tests and closed after them; after each test
 * nothing may have left the machine and no page may have logged an error. Read its fields inside the tests.
 */
export function portalSuite(): PortalSuite {
  const suite = {} as PortalSuite;
  beforeAll(async () => {
    suite.t = await startTestApp();
    suite.b = await openBrowser(suite.t);
    suite.staff = await createStaffToken(suite.t);
  }, 60_000);
  afterAll(async () => {
    await suite.b?.close();
    await suite.t?.close();
  });
  afterEach(() => expectClean(suite.b));
  return suite;
}

/** Signs in at /portal with the e-mailed code and waits for the orders. */
export async function signInToPortal(b: BrowserSession, email: string, width?: number): Promise<Page> {
  const page = await offlinePage(b, width);
  await signInThroughPage(b, page, 'portal', email);
  await byRole(page, 'heading', 'Orders');
  return page;
}

/** The nodes of the page's accessibility tree with this role and name. */
export async function axNodes(page: Page, role: string, name: string): Promise<SerializedAXNode[]> {
  const found: SerializedAXNode[] = [];
  const walk = (node: SerializedAXNode | null) => {
    if (!node) return;
    if (node.role === role && node.name === name) found.push(node);
    node.children?.forEach(walk);
  };
  walk(await page.accessibility.snapshot());
  return found;
}

/** Which of these controls (role and accessible name) the page shows now, as `role "name"`. */
export async function controlsShown(page: Page, controls: [role: string, name: string][]): Promise<string[]> {
  const shown: string[] = [];
  for (const [role, name] of controls)
    if (await page.$(`::-p-aria([name="${name}"][role="${role}"])`)) shown.push(`${role} "${name}"`);
  return shown;
}

/**
 * Files chosen with the file button a person knows by `name`: puppeteer's ARIA query does not reach file inputs, so
 * the name is checked in the accessibility tree and the button's label opens the file chooser.
 */
export async function chooseFiles(page: Page, name: string, paths: string[]): Promise<void> {
  expect(await axNodes(page, 'button', name)).toHaveLength(1);
  const [chooser] = await Promise.all([page.waitForFileChooser(), page.click(`label::-p-text(${name})`)]);
  await chooser.accept(paths);
}

/**
 * "Pay", then Pay at the sandbox checkout, which sends the payer back to the portal. The test app's links carry its
 * configured address rather than the port it listens on, so the link is followed at the real one.
 */
export async function payAtCheckout(t: TestApp, b: BrowserSession, page: Page): Promise<void> {
  await page.goto(`${b.base}${await hrefOf(t, page, 'link', 'Pay')}`, { waitUntil: 'load' });
  const pay = await page.waitForSelector('form[action$="/pay"] button');
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), pay!.click()]);
}

/** A link's address on the test app's real port (its links carry the configured address). */
export async function hrefOf(t: TestApp, page: Page, role: string, name: string): Promise<string> {
  const link = await byRole(page, role, name);
  const href = String(await (await link.getProperty('href')).jsonValue());
  return href.replace(t.config.appUrl, '').replace(/^https?:\/\/[^/]+/, '');
}

/**
 * Holds the page's GraphQL operation `name` (an order page's polls, `PortalOrderMark`) until the function returned is
 * called, as a slow network would, so that a race is set up without a clock. As with `holdRequests`, puppeteer awaits
 * what a request handler returns before the request goes on; the body is read for the operation's name.
 */
export function holdOperation(page: Page, name: string): () => void {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- that promise is what holds the request
  page.on('request', async (request) => ((await request.fetchPostData())?.includes(name) ? released : undefined));
  return release;
}
