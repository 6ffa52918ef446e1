import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import {
  ApproveTranslationDocument,
  CompleteCertifiedOrderDocument,
  ConfirmInterpretationAvailabilityDocument,
  StaffOrderDocument,
} from '../graphql/generated';
import { createStaffMember } from '../helpers/certified';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The pages people open, in a real headless Chromium with the network cut off: every request that leaves this
 * machine is refused and recorded, so a page that needs a CDN or a font service fails here, and so does one that
 * reports an error in the browser's console (a load the page policy refused never reaches the network).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let t: TestApp;
let server: Server;
let base: string;
let browser: Browser;
let alice: TestAccount;
let staff: string;
let fileId: string;
const outside: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  server = t.app.express.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(1200)] }), 'affidavit.docx')).id;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

/** A page whose requests may reach only this service. */
async function offlinePage(width = 1280): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900 });
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.host === new URL(base).host)
      return void request.continue();
    outside.push(request.url());
    void request.abort('internetdisconnected');
  });
  page.on(
    'console',
    (message) => void (message.type() === 'error' && consoleErrors.push(`${message.text()} ${message.location().url}`)),
  );
  page.on('pageerror', (error) => void consoleErrors.push(String(error)));
  return page;
}
afterEach(() => {
  expect(outside.splice(0)).toEqual([]);
  expect(consoleErrors.splice(0)).toEqual([]);
});

/** Whether the page scrolls sideways at its viewport's width. */
const pageWidth = async (page: Page) => Number(await page.evaluate('document.documentElement.scrollWidth'));

/** What a person reads on the page (scripts evaluate in the browser, where `document` lives). */
const pageText = async (page: Page) => String(await page.evaluate('document.body.innerText'));

const screenshot = (page: Page, name: string) => {
  const dir = join(process.env.LTK_SCREENSHOT_DIR ?? join(t.config.dataDir, 'screenshots'));
  mkdirSync(dir, { recursive: true });
  return page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
};

describe('API reference and explorer, offline', () => {
  it('links / to the reference, which renders every operation from the served OpenAPI document', async () => {
    const page = await offlinePage();
    await page.goto(`${base}/`, { waitUntil: 'networkidle0' });
    await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click('a[href="/docs"]')]);
    await page.waitForSelector('[data-section-id]', { timeout: 30_000 });
    const text = await pageText(page);
    expect(text).toContain('Create a quote');
    expect(text).toContain('Order detail (poll for progress)');
    await screenshot(page, 'docs');
    await page.close();
  }, 60_000);

  it.each([1280, 390])(
    'runs `me` from the GraphQL explorer with a key sent in the Authorization header, its result in view at %i px',
    async (width) => {
      const page = await offlinePage(width);
      await page.goto(`${base}/graphql?query=${encodeURIComponent('{ me { name } }')}`, { waitUntil: 'networkidle0' });
      // The bearer header goes into GraphiQL's headers editor (the second of its tool editors, after the variables')
      // through that editor's own CodeMirror: at 390 px GraphiQL may keep the tools pane collapsed to no height, and
      // what this test checks is the request sent and its result in view, not typing into a hidden pane.
      await page.waitForFunction(`document.querySelectorAll('.graphiql-editor-tool .CodeMirror').length === 2`, {
        timeout: 30_000,
      });
      const header = JSON.stringify(`{"Authorization": "Bearer ${alice.key}"}`);
      await page.evaluate(
        `document.querySelectorAll('.graphiql-editor-tool .CodeMirror')[1].CodeMirror.setValue(${header})`,
      );
      await page.click('.graphiql-execute-button');
      await page.waitForFunction(`document.querySelector('.result-window')?.textContent?.includes('"me"')`, {
        timeout: 30_000,
      });
      const result = await page.$eval('.result-window', (element) => element.textContent ?? '');
      const me = (await t.rest.get('/api/v1/me', alice.key).expect(200)).body.data;
      expect(result).toContain(me.name);
      // On a phone the panes stack: the result is below the editors, as wide as the screen, not squeezed to nothing.
      const pane = await page.$eval('.graphiql-response', (element) => {
        const box = element.getBoundingClientRect();
        return { left: box.left, right: box.right, width: box.width, height: box.height };
      });
      expect(pane.left).toBeGreaterThanOrEqual(0);
      expect(pane.right).toBeLessThanOrEqual(width);
      expect(pane.width).toBeGreaterThanOrEqual(Math.min(width * 0.7, 400));
      expect(pane.height).toBeGreaterThanOrEqual(150);
      await screenshot(page, `graphql-explorer-${width}`);
      await page.close();
    },
    60_000,
  );

  it('answers a client that does not ask for HTML with the entry points, each of which answers', async () => {
    const index = (await t.rest.get('/').set('Accept', '*/*').expect(200)).body;
    expect(index.name).toBe(`${t.config.company.name} API`);
    expect(index.rest_api).toBe('/api/v1');
    for (const path of Object.values(index.links as Record<string, string>)) {
      // The verification page of an unknown code is its own 404 page; GraphQL asked for nothing answers 400.
      const { status, type } = await t.rest.get(path.replace('{code}', 'K7QM-3XPA-9RTD-2WBN'));
      expect({ path, found: status < 500 && (status !== 404 || type === 'text/html') }).toEqual({ path, found: true });
    }
  });
});

describe('certificate verification page', () => {
  /** A completed certified order's verification URL, reached the way staff complete one. */
  async function verifyUrl(): Promise<string> {
    const reviewer = (
      await createStaffMember(t, { name: 'Rosa Reviewer', credentials: 'ATA-certified translator no. 123456' })
    ).token;
    // The checkout's orders stay as paid; this one is translated by a worker on the same database and files.
    const worker = await startTestApp({
      databaseOf: t,
      config: { dataDir: t.config.dataDir, storage: t.config.storage },
    });
    const id = await paidOrder(t, alice, [fileId], 'certified');
    await waitForStatus(t, alice, id, 'in_review').finally(() => worker.close());
    const translation = (await t.gql(StaffOrderDocument, { id }, reviewer)).data!.staffOrder!.files.find(
      (file) => file.type === 'TRANSLATION',
    )!;
    expect((await t.gql(ApproveTranslationDocument, { fileId: translation.id }, reviewer)).errors).toBeUndefined();
    expect((await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, reviewer)).errors).toBeUndefined();
    const { certificate } = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
    return (certificate.verify_url as string).replace(t.config.appUrl, base);
  }

  it('fits a 390 px screen, with every document and a contact', async () => {
    const page = await offlinePage(390);
    await page.goto(await verifyUrl(), { waitUntil: 'networkidle0' });
    const text = await pageText(page);
    expect(text).toContain('This is a valid certificate of translation accuracy');
    expect(text).toMatch(/affidavit\.en\.docx\s+\d+\s+[0-9a-f]{64}/);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    expect(await page.$eval('footer a', (link) => link.getAttribute('href'))).toBe(
      `mailto:${t.config.company.supportEmail}`,
    );
    await screenshot(page, 'verify-390');
    await page.close();
  }, 90_000);

  it('says where to write when no certificate has the code, at 390 px', async () => {
    const page = await offlinePage(390);
    const answer = await page.goto(`${base}/verify/K7QM-3XPA-9RTD-2WBN`, { waitUntil: 'networkidle0' });
    expect(answer?.status()).toBe(404);
    // The page's own status is the one error Chromium reports.
    expect(consoleErrors.splice(0)).toEqual([expect.stringMatching(/status of 404 .*\/verify\/K7QM-3XPA-9RTD-2WBN$/)]);
    expect(await pageText(page)).toContain(`or write to ${t.config.company.supportEmail}.`);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await screenshot(page, 'verify-unknown-390');
    await page.close();
  });
});

describe('hosted checkout page', () => {
  const newOrder = async () => {
    const quote = (
      await t.rest
        .post(
          '/api/v1/quotes',
          {
            source_language: 'de',
            target_language: 'en',
            service_type: 'certified',
            file_ids: [fileId],
            addons: [{ code: 'rush_2h' }],
          },
          alice.key,
        )
        .expect(201)
    ).body.data;
    const converted = (
      await t.rest
        .post(`/api/v1/quotes/${quote.id}/convert`, { redirect_url: `${base}/?from=checkout` }, alice.key)
        .expect(201)
    ).body;
    return {
      id: converted.data.id as string,
      checkout: (converted.provider_approval_url as string).replace(t.config.appUrl, base),
    };
  };

  it.each([390, 1280])(
    'shows the operator, every line and the total, and fits a %i px screen',
    async (width) => {
      const order = await newOrder();
      const page = await offlinePage(width);
      await page.goto(order.checkout, { waitUntil: 'networkidle0' });
      const text = await pageText(page);
      expect(text).toContain(t.config.company.name);
      expect(text).toMatch(/Certified translation, German to English, \d+ billing pages? \(250 words each\)/);
      expect(text).toMatch(/Rush/i);
      expect(text).toMatch(/Total\s+\$\d/);
      // Nothing scrolls sideways, and the Pay button is a real touch target.
      expect(await pageWidth(page)).toBeLessThanOrEqual(width);
      const pay = await page.$eval('button.primary', (button) => {
        const box = button.getBoundingClientRect();
        return { width: box.width, height: box.height, label: button.getAttribute('aria-label') };
      });
      expect(pay.height).toBeGreaterThanOrEqual(44);
      expect(pay.width).toBeGreaterThanOrEqual(width < 768 ? width * 0.7 : 150);
      expect(pay.label).toMatch(/^Pay \$/);
      await screenshot(page, `checkout-${width}`);
      await page.close();
    },
    60_000,
  );

  it('pays and returns to the redirect_url with the order id, and shows the checkout as paid afterwards', async () => {
    const order = await newOrder();
    const page = await offlinePage(390);
    await page.goto(order.checkout, { waitUntil: 'networkidle0' });
    await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click('button.primary')]);
    const landed = new URL(page.url());
    expect(`${landed.origin}${landed.pathname}`).toBe(`${base}/`);
    expect(Object.fromEntries(landed.searchParams)).toEqual({ from: 'checkout', payment: 'paid', order_id: order.id });
    expect((await t.rest.get(`/api/v1/orders/${order.id}`, alice.key).expect(200)).body.data.status).toBe('processing');
    await page.goto(order.checkout, { waitUntil: 'networkidle0' });
    expect(await pageText(page)).toContain('This checkout is already paid.');
    await page.close();
  }, 60_000);

  it('takes a booking from its redirect_url to the checkout and back with the booking id', async () => {
    const body = {
      source_language: 'es',
      target_language: 'en',
      mode: 'video_remote',
      scheduled_at: '2031-01-10T10:00:00-05:00',
      duration_hours: 3,
      redirect_url: `${base}/?from=booking`,
    };
    const booking = (await t.rest.post('/api/v1/interpretation-bookings', body, alice.key).expect(201)).body.data;
    expect(
      (await t.gql(ConfirmInterpretationAvailabilityDocument, { id: booking.id, interpreterName: 'Ana Ruiz' }, staff))
        .errors,
    ).toBeUndefined();
    const { approval_url } = (await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, alice.key).expect(200))
      .body.data.payment;
    const page = await offlinePage(390);
    await page.goto(approval_url.replace(t.config.appUrl, base), { waitUntil: 'networkidle0' });
    expect(await pageText(page)).toContain(
      'Interpreter (video remote), Spanish to English, 2031-01-10 10:00 UTC-05:00 (2031-01-10 15:00 UTC), 3 h at $85.00/h',
    );
    await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click('button.primary')]);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      from: 'booking',
      payment: 'paid',
      booking_id: booking.id,
    });
    await page.close();
  }, 60_000);
});
