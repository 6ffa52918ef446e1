import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { ConfirmInterpretationAvailabilityDocument } from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The pages people open, in a real headless Chromium with the network cut off: every request that leaves this
 * machine is refused and recorded, so a page that needs a CDN or a font service fails here.
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
  return page;
}
afterEach(() => expect(outside.splice(0)).toEqual([]));

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

  it('runs `me` from the GraphQL explorer with a key sent in the Authorization header', async () => {
    const page = await offlinePage();
    await page.goto(`${base}/graphql?query=${encodeURIComponent('{ me { name } }')}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.graphiql-editor-tool .CodeMirror', { timeout: 30_000 });
    // The Headers tab is open by default: type the bearer header into its editor (the visible one), then run.
    const editors = await page.$$('.graphiql-editor-tool .CodeMirror');
    const visible = await Promise.all(editors.map((editor) => editor.isVisible()));
    await editors[visible.indexOf(true)].click();
    await page.keyboard.type(`{"Authorization": "Bearer ${alice.key}"`);
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(`document.querySelector('.result-window')?.textContent?.includes('"me"')`, {
      timeout: 30_000,
    });
    const result = await page.$eval('.result-window', (element) => element.textContent ?? '');
    const me = (await t.rest.get('/api/v1/me', alice.key).expect(200)).body.data;
    expect(result).toContain(me.name);
    await screenshot(page, 'graphql-explorer');
    await page.close();
  }, 60_000);
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
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
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
