import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { codeMailedTo } from '../helpers/members';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D27 in a real browser: the example portal page (examples/partner-portal) served from a second origin signs a member
 * in with the code from the outbox, lists the account's orders and uploads a file, all through GraphQL across origins;
 * the same page from an origin not in the list is refused by the browser itself.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const EXAMPLES = join(__dirname, '..', '..', 'examples');
const ELSEWHERE = 'intranet.firm.test';

let t: TestApp;
let portal: Server;
let portalPort: number;
let browser: Browser;
let firm: TestAccount;
let staff: string;
let orderNumber: string;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  const page = readFileSync(join(EXAMPLES, 'partner-portal', 'index.html'));
  portal = createServer(
    (_req, res) => void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page),
  );
  await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
  portalPort = (portal.address() as AddressInfo).port;
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // A host name of another machine, resolved to this one: the sandbox allows every local name (localhost,
    // 127.0.0.1, [::1]), so an origin it refuses needs a name of its own.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      `--host-resolver-rules=MAP ${ELSEWHERE} 127.0.0.1`,
    ],
  });
  staff = await createStaffToken(t);
  firm = await createApprovedAccount(t, staff);
  const file = await uploadFile(t, firm.key, await docx({ paragraphs: [words(300)] }), 'lease.docx');
  const quote = (
    await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'de', target_language: 'en', service_type: 'certified', file_ids: [file.id] },
        firm.key,
      )
      .expect(201)
  ).body.data;
  const order = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, firm.key).expect(201)).body.data;
  orderNumber = order.number;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => portal?.close(resolve));
  await t?.close();
});

/** The portal page from `host` (an origin of its own: another host name or port than the API's). */
async function openPortal(host: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`http://${host}:${portalPort}/index.html?api=${encodeURIComponent(t.url)}`, { waitUntil: 'load' });
  return page;
}

const statusText = (page: Page) => page.$eval('#status', (element) => element.textContent ?? '');

it('signs a member in with the e-mailed code, lists the orders and uploads a file from another origin', async () => {
  const page = await openPortal('localhost');
  expect(new URL(page.url()).origin).not.toBe(new URL(t.url).origin);
  await page.type('#email', firm.email);
  await page.click('#ask button');
  await page.waitForSelector('#enter:not([hidden])');
  const code = await codeMailedTo(t, staff, firm.email);
  await page.type('#code', code!);
  await page.click('#enter button');
  // Scripts evaluate in the browser, where `document` lives.
  await page.waitForFunction(`document.getElementById('orders').textContent.includes(${JSON.stringify(orderNumber)})`, {
    timeout: 15_000,
  });
  expect(await statusText(page)).toMatch(/Signed in as .+ \(admin\)/);
  expect(await page.$eval('#orders', (element) => element.textContent)).toContain('placed by the API key');

  const input = await page.$('#file');
  await input!.uploadFile(join(EXAMPLES, 'affidavit.docx'));
  await page.click('#upload button');
  await page.waitForFunction(`document.getElementById('status').textContent.startsWith('Uploaded')`, {
    timeout: 15_000,
  });
  expect(await statusText(page)).toBe('Uploaded affidavit.docx.');
  const files = await t.orm.em
    .fork()
    .getConnection()
    .execute(`select name from files where account_id = ? and name = 'affidavit.docx'`, [firm.id]);
  expect(files).toHaveLength(1);
  await page.close();
}, 60_000);

it('is refused by the browser from an origin not in the list', async () => {
  const page = await openPortal(ELSEWHERE);
  const outcome = await page.evaluate(async (api: string) => {
    try {
      await fetch(`${api}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ languages { code } }' }),
      });
      return 'answered';
    } catch {
      return 'refused';
    }
  }, t.url);
  expect(outcome).toBe('refused');
  await page.close();
}, 60_000);
