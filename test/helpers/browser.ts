import { mkdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type HTTPRequest, type Page } from 'puppeteer-core';
import { pollUntil } from './poll';
import type { TestApp } from './test-app';

/**
 * Real-browser tests of the browser applications (docs/decisions.md D34): headless Chromium through puppeteer-core,
 * with the network cut off but for the service, controls found by their accessible names as a person finds them,
 * axe-core run inside the page, and screenshots at phone and desktop width.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const LOCAL_PROTOCOLS = new Set(['data:', 'blob:', 'chrome:', 'chrome-extension:']);

export const PHONE = 390;
export const DESKTOP = 1280;

export interface BrowserSession {
  browser: Browser;
  /** Where the service listens over HTTP. */
  base: string;
  /** Requests that tried to leave this machine, and errors in the pages' consoles, since the last `checkClean`. */
  outside: string[];
  consoleErrors: string[];
  close(): Promise<void>;
}

/** A browser and the test app listening on a port of its own. */
export async function openBrowser(t: TestApp): Promise<BrowserSession> {
  const server: Server = t.app.express.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  return {
    browser,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    outside: [],
    consoleErrors: [],
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A page whose requests may reach only the service; a request elsewhere and a console error are recorded. Requests
 * are let through cooperatively (a priority given), so another handler may still hold one (`holdRequests`).
 */
export async function offlinePage(session: BrowserSession, width = DESKTOP): Promise<Page> {
  const page = await session.browser.newPage();
  await page.setViewport({ width, height: 900 });
  await page.setRequestInterception(true);
  const host = new URL(session.base).host;
  page.on('request', (request) => {
    const url = new URL(request.url());
    // The browser's own pages and viewers (its PDF viewer's files) come from inside it, not the network.
    if (LOCAL_PROTOCOLS.has(url.protocol) || url.host === host)
      return void request.continue(request.continueRequestOverrides(), 0);
    session.outside.push(request.url());
    void request.abort('internetdisconnected', 0);
  });
  page.on('console', (message) => {
    // A refused request (a 4xx the screen shows as a refusal) is logged by the browser itself; the page is fine.
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text()))
      session.consoleErrors.push(`${message.text()} ${message.location().url}`);
  });
  page.on('pageerror', (error) => void session.consoleErrors.push(String(error)));
  return page;
}

/**
 * Holds the page's requests that `matches` (an offlinePage's) until the function returned is called, as a slow network
 * would: what the page shows meanwhile (an upload's progress) is then looked at without waiting on a clock.
 */
export function holdRequests(page: Page, matches: (request: HTTPRequest) => boolean): () => void {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  // Puppeteer runs each request handler as an intercept action and awaits what it returns before the request goes on.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- that promise is what holds the request
  page.on('request', (request) => (matches(request) ? released : undefined));
  return release;
}

/** Nothing left the machine and no page logged an error since the last call. */
export function expectClean(session: BrowserSession): void {
  expect(session.outside.splice(0)).toEqual([]);
  expect(session.consoleErrors.splice(0)).toEqual([]);
}

/** Puppeteer's ARIA query for a control by its role and accessible name. */
const ariaSelector = (role: string, name: string) =>
  `::-p-aria([name="${name.replaceAll('"', '\\"')}"][role="${role}"])`;

/** A control by its role and accessible name (puppeteer's ARIA query), waiting for it to appear. */
export function byRole(page: Page, role: string, name: string, timeout = 15_000): Promise<ElementHandle> {
  return page.waitForSelector(ariaSelector(role, name), { timeout }) as Promise<ElementHandle>;
}

/**
 * Clicks the control a person finds by its role and name once it is visible, enabled and no longer moving: a click
 * aimed at where it was drawn a frame earlier would land on whatever a late answer pushed there (the desk's facts
 * arrive after the order's and push its documents down).
 */
export async function press(page: Page, name: string, role = 'button', count = 1): Promise<void> {
  await page.locator(ariaSelector(role, name)).setTimeout(15_000).click({ count });
}

/** Types into the text box (or combo box) a person finds by its label. */
export async function fill(page: Page, label: string, value: string, role = 'textbox'): Promise<void> {
  await press(page, label, role, 3);
  await page.keyboard.type(value);
}

/** The form control a `<label>` reading `label` stands for, waiting for it to appear. */
async function labelled(page: Page, label: string, type?: string): Promise<ElementHandle> {
  const handle = await page.waitForFunction(
    `[...document.querySelectorAll('label')].filter((l) => l.textContent.trim() === ${JSON.stringify(label)}).map((l) => l.control).find((c) => c && ${type ? `c.type === ${JSON.stringify(type)}` : 'true'})`,
    { timeout: 15_000 },
  );
  return handle;
}

/**
 * Gives a file to the file picker labelled `label`, as the operating system's dialog would (a file input's accessible
 * name in Chromium is its button's, "Choose File", so the picker is found through its label's `for`).
 */
export async function chooseFile(page: Page, label: string, path: string): Promise<void> {
  const picker = (await labelled(page, label, 'file')) as unknown as { uploadFile(path: string): Promise<void> };
  await picker.uploadFile(path);
}

/**
 * Types into the date (or date and time) field labelled `label` as a person does, in the order Chromium's en-US fields
 * show their segments: `'06302030'` for 30 June 2030; `'11262026', '0930A'` for 26 November 2026 at 9:30 AM. A month,
 * day, hour or minute moves on by itself once typed; a year (up to six digits) does not, so each part ends with the
 * right arrow. (A click would land in whichever segment is under the pointer; the focus starts at the first.)
 */
export async function typeDate(page: Page, label: string, ...parts: string[]): Promise<void> {
  await (await labelled(page, label)).focus();
  for (const part of parts) {
    await page.keyboard.type(part);
    await page.keyboard.press('ArrowRight');
  }
}

/** Picks the option with value `value` in the select a person finds by its label, waiting for it to appear. */
export async function choose(page: Page, label: string, value: string): Promise<void> {
  await (await byRole(page, 'combobox', label)).select(value);
}

/** Markup someone might write in a message: a page must show it as the text it is, never make elements of it. */
export const MARKUP_TEXT = '<img src=x onerror=alert(1)><b>bold</b>';

/** Whether the element at `within` shows MARKUP_TEXT literally, and the img or b elements it holds (none, safely). */
export async function markupShown(page: Page, within: string): Promise<{ literally: boolean; elements: string[] }> {
  // Scripts evaluate in the browser, where `document` lives.
  return (await page.evaluate(`{
    const shown = document.querySelector(${JSON.stringify(within)});
    ({
      literally: shown.textContent.includes(${JSON.stringify(MARKUP_TEXT)}),
      elements: [...shown.querySelectorAll('img, b')].map((made) => made.outerHTML),
    });
  }`)) as { literally: boolean; elements: string[] };
}

/** What a person reads on the page. */
export const pageText = async (page: Page) => String(await page.evaluate('document.body.innerText'));

/** Waits until the page shows the text; on a timeout, the error says what the page showed instead. */
export async function waitForText(page: Page, text: string, timeout = 15_000): Promise<void> {
  try {
    await page.waitForFunction(`document.body.innerText.includes(${JSON.stringify(text)})`, { timeout });
  } catch (error) {
    const shown = await pageText(page).catch(() => '(the page could not be read)');
    throw new Error(`The page did not show ${JSON.stringify(text)}; it showed:\n${shown}`, { cause: error });
  }
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical findings on the page as it is now. It runs inside the page through the DevTools
 * protocol, which the page's script policy does not govern, so the page keeps the policy it is served with.
 */
export async function accessibilityFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations)',
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Whether the page scrolls sideways at its viewport's width. */
export const scrollsSideways = async (page: Page) =>
  Boolean(await page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth'));

/**
 * The screen as it is, checked at phone and desktop width: no serious or critical axe finding, no sideways
 * scrolling at either, and a screenshot of each (under the test app's data directory, or LTK_SCREENSHOT_DIR).
 */
export async function checkScreen(t: TestApp, page: Page, name: string): Promise<void> {
  const viewport = page.viewport()!;
  const dir = process.env.LTK_SCREENSHOT_DIR ?? join(t.config.dataDir, 'screenshots');
  mkdirSync(dir, { recursive: true });
  for (const width of [PHONE, DESKTOP]) {
    await page.setViewport({ width, height: 900 });
    expect({ width, scrollsSideways: await scrollsSideways(page) }).toEqual({ width, scrollsSideways: false });
    expect(await accessibilityFindings(page)).toEqual([]);
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewport(viewport);
}

/** The code mailed to `email`, read from the sandbox outbox page (`/sandbox/mail`) as a person would. */
export async function codeFromOutbox(session: BrowserSession, email: string): Promise<string> {
  const outbox = await offlinePage(session);
  // The mail is written in the request's transaction, but a loaded machine may answer the page before it commits.
  const code = await pollUntil(
    async () => {
      await outbox.goto(`${session.base}/sandbox/mail?to=${encodeURIComponent(email)}`, { waitUntil: 'load' });
      return /\b(\d{6})\b/.exec(await pageText(outbox))?.[1];
    },
    (found) => found !== undefined,
    { timeoutMs: 15_000, intervalMs: 300, failure: () => `no sign-in code in the outbox for ${email}` },
  );
  await outbox.close();
  return code!;
}

/** Signs in at `/<app>` with the e-mailed code: "Send code", the code from the outbox, "Sign in". */
export async function signInThroughPage(
  session: BrowserSession,
  page: Page,
  app: string,
  email: string,
): Promise<void> {
  await page.goto(`${session.base}/${app}`, { waitUntil: 'load' });
  await fill(page, 'E-mail', email);
  await press(page, 'Send code');
  // The code field appears once the service has answered, so the code is in the outbox by then.
  await byRole(page, 'textbox', 'Code');
  // Typed in two groups, as people read six digits off an e-mail: the service takes it so (D27).
  const code = await codeFromOutbox(session, email);
  await fill(page, 'Code', `${code.slice(0, 3)} ${code.slice(3)}`);
  await press(page, 'Sign in');
}
