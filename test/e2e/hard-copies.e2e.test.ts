import { SentEmailsDocument } from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { gqlRaw } from '../helpers/graphql-raw';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D22 (amended): hard copies ship somewhere. v1 quotes carry no address, so the client sets it on the order, before or
 * after completion, on both doors; staff ship a completed order with an address and may correct what they recorded.
 */
let t: TestApp;
let staff: string;
let alice: TestAccount;
let bob: TestAccount;
let fileId: string;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  staff = await createStaffToken(t);
  [alice, bob] = [await createApprovedAccount(t, staff), await createApprovedAccount(t, staff)];
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(600)] }), 'birth-certificate.docx')).id;
});
afterAll(() => t.close());

const ADDRESS = {
  name: 'Smith & Partners LLP',
  line1: '100 Court St',
  line2: 'Suite 4',
  city: 'Springfield',
  region: 'IL',
  postal_code: '62701',
  country: 'us',
};
const STORED = { ...ADDRESS, country: 'US' };
const OTHER_ADDRESS = {
  name: 'Jones Law',
  line1: '1 Rue de Rivoli',
  city: 'Paris',
  postal_code: '75001',
  country: 'FR',
};
const quoteBody = (extra: object) => ({
  source_language: 'es',
  target_language: 'en',
  service_type: 'standard',
  file_ids: [fileId],
  ...extra,
});
const withCopies = { addons: [{ code: 'hard_copy', quantity: 2 }] };

const sql = <T>(query: string, params: unknown[]) => t.orm.em.fork().getConnection().execute<T[]>(query, params);
const getOrder = async (id: string) => (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
const putAddress = (id: string, body: unknown, key = alice.key) =>
  t.rest.put(`/api/v1/orders/${id}/shipping_address`, body, key);
const auditCount = async (id: string, action: string) =>
  (
    await sql<{ n: number }>(`SELECT count(*)::int AS n FROM audit_entries WHERE resource_id = ? AND action = ?`, [
      id,
      action,
    ])
  )[0].n;
const mails = async (kind: string, number: string) =>
  (await t.gql(SentEmailsDocument, { to: alice.email, perPage: 100 }, staff)).data!.sentEmails.items.filter(
    (mail) => mail.kind === kind && mail.subject.includes(number),
  );

/** A converted order (paid unless told otherwise): its id and number. */
async function order(extra: object = withCopies, { pay = true } = {}): Promise<{ id: string; number: string }> {
  const quote = (await t.rest.post('/api/v1/quotes', quoteBody(extra), alice.key).expect(201)).body.data;
  const converted = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201)).body;
  if (pay)
    await t.rest
      .raw()
      .post(`${converted.provider_approval_url.replace(t.config.appUrl, '')}/pay`)
      .type('form')
      .send({})
      .expect(200);
  return converted.data;
}

/** The pipeline's own end of a standard order's translation (no worker runs here, so the test decides when). */
const complete = (id: string) =>
  t.services.orders.lifecycle.change(t.orm.em.fork(), { id }, (em, row) =>
    t.services.orders.translationFinished(em, row),
  );

const markShipped = (orderId: string, tracking = '1Z999AA10123456784', token = staff) =>
  gqlRaw(
    t.rest.raw(),
    `mutation { markShipped(orderId: "${orderId}", carrier: "UPS", trackingNumber: "${tracking}") { shipment { carrier trackingNumber shippedAt } } }`,
    { token },
  );

describe('a v1 quote for hard copies', () => {
  it('is priced without an address, exactly as the contract writes it, and its order asks for one', async () => {
    const quote = await t.rest
      .post('/api/v1/quotes', quoteBody({ addons: [{ code: 'hard_copy' }] }), alice.key)
      .expect(201);
    expect(quote.body.data).toMatchObject({ addons_total_cents: 1495, shipping_address: null });
    const { id } = await order();
    expect(await getOrder(id)).toMatchObject({
      shipping_address: null,
      shipping_address_required: true,
      shipment: null,
    });
    const partner = await gqlRaw(
      t.rest.raw(),
      `{ order(id: "${id}") { shippingAddress { city } shippingAddressRequired } }`,
      { token: alice.key },
    );
    expect(partner.data).toEqual({ order: { shippingAddress: null, shippingAddressRequired: true } });
  });

  it('keeps an address given on the quote; an order without hard copies never asks for one', async () => {
    const { id } = await order({ ...withCopies, shipping_address: ADDRESS });
    expect(await getOrder(id)).toMatchObject({ shipping_address: STORED, shipping_address_required: false });
    const plain = await order({});
    expect(await getOrder(plain.id)).toMatchObject({ shipping_address: null, shipping_address_required: false });
  });

  it('still refuses an address without hard copies, and names each wrong field, storing nothing', async () => {
    const before = (await t.rest.get('/api/v1/quotes', alice.key).expect(200)).body.meta.total;
    const unused = await t.rest.post('/api/v1/quotes', quoteBody({ shipping_address: ADDRESS }), alice.key).expect(422);
    expect(unused.body.errors).toEqual({
      shipping_address: ['The shipping address field is only for quotes with hard copies.'],
    });
    const { postal_code: _dropped, ...noPostalCode } = ADDRESS;
    const res = await t.rest
      .post(
        '/api/v1/quotes',
        quoteBody({ ...withCopies, shipping_address: { ...noPostalCode, country: 'XX', name: '' } }),
        alice.key,
      )
      .expect(422);
    expect(res.body.errors).toEqual({
      'shipping_address.name': ['The shipping address.name field is required.'],
      'shipping_address.postal_code': ['The shipping address.postal code field is required.'],
      'shipping_address.country': ['The country field must be an ISO 3166-1 alpha-2 country code.'],
    });
    expect(
      (
        await t.rest
          .post('/api/v1/quotes', quoteBody({ ...withCopies, shipping_address: 'Springfield' }), alice.key)
          .expect(422)
      ).body.errors,
    ).toEqual({
      shipping_address: ['The shipping address field must be an object.'],
    });
    expect((await t.rest.get('/api/v1/quotes', alice.key).expect(200)).body.meta.total).toBe(before);
  });

  it('answers the same refusals on GraphQL, keyed as its input names the fields', async () => {
    const input = `{ sourceLanguage: "es", targetLanguage: "en", serviceType: CERTIFIED, fileIds: ["${fileId}"], addons: [{ code: "hard_copy" }],
      shippingAddress: { name: "Smith & Partners LLP", line1: "100 Court St", city: "Springfield", postalCode: "", country: "ZZ" } }`;
    const res = await gqlRaw(
      t.rest.raw(),
      `mutation { createQuote(input: ${input}) { id shippingAddress { city } } }`,
      { token: alice.key },
    );
    expect(res.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: {
        'shippingAddress.postalCode': ['The shipping address.postal code field is required.'],
        'shippingAddress.country': ['The country field must be an ISO 3166-1 alpha-2 country code.'],
      },
    });
    const without = `{ sourceLanguage: "es", targetLanguage: "en", serviceType: CERTIFIED, fileIds: ["${fileId}"], addons: [{ code: "hard_copy" }] }`;
    const priced = await gqlRaw(
      t.rest.raw(),
      `mutation { createQuote(input: ${without}) { shippingAddress { city } addonsTotalCents } }`,
      { token: alice.key },
    );
    expect(priced).toMatchObject({ data: { createQuote: { shippingAddress: null, addonsTotalCents: 1495 } } });
  });
});

describe('PUT /orders/{id}/shipping_address', () => {
  it('sets the address before payment, idempotently: the same address again changes nothing', async () => {
    const { id } = await order(withCopies, { pay: false });
    const first = await putAddress(id, ADDRESS).expect(200);
    expect(first.body.data).toMatchObject({
      id,
      status: 'pending_payment',
      shipping_address: STORED,
      shipping_address_required: false,
    });
    const etag = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).headers.etag;
    const again = await putAddress(id, ADDRESS).expect(200);
    expect(again.body.data.updated_at).toBe(first.body.data.updated_at);
    await t.rest.get(`/api/v1/orders/${id}`, alice.key).set('If-None-Match', etag).expect(304);
    expect(await auditCount(id, 'order.set_shipping_address')).toBe(1);
    // Another address replaces it, and the poller sees the change.
    expect((await putAddress(id, OTHER_ADDRESS).expect(200)).body.data.shipping_address).toEqual({
      ...OTHER_ADDRESS,
      line2: null,
      region: null,
    });
    await t.rest.get(`/api/v1/orders/${id}`, alice.key).set('If-None-Match', etag).expect(200);
  });

  it('names each wrong field of the body and changes nothing', async () => {
    const { id } = await order();
    const bad = await putAddress(id, { ...ADDRESS, city: '', country: 'XX', postal_code: 'x'.repeat(21) }).expect(422);
    expect(bad.body).toEqual({
      message: 'The city field is required. (and 2 more errors)',
      errors: {
        city: ['The city field is required.'],
        postal_code: ['The postal code field must not be greater than 20 characters.'],
        country: ['The country field must be an ISO 3166-1 alpha-2 country code.'],
      },
    });
    expect(Object.keys((await putAddress(id, [ADDRESS]).expect(422)).body.errors)).toEqual([
      'name',
      'line1',
      'city',
      'postal_code',
      'country',
    ]);
    expect((await putAddress(id, { ...ADDRESS, name: 'a\u0000b' }).expect(422)).body.errors).toEqual({
      name: ['The name field must not contain control characters.'],
    });
    await t.rest
      .raw()
      .put(`/api/v1/orders/${id}/shipping_address`)
      .set('Authorization', `Bearer ${alice.key}`)
      .set('Content-Type', 'application/json')
      .send('{"name":')
      .expect(400);
    expect(await getOrder(id)).toMatchObject({ shipping_address: null, shipping_address_required: true });
  });

  it("is 404 for an unknown id, a malformed id and another account's order; 401 without a key; 405 for another method", async () => {
    const { id } = await order();
    for (const path of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      expect((await putAddress(path, ADDRESS).expect(404)).body).toEqual({ message: 'Not found.' });
    }
    expect((await putAddress(id, ADDRESS, bob.key).expect(404)).body).toEqual({ message: 'Not found.' });
    await t.rest.raw().put(`/api/v1/orders/${id}/shipping_address`).send(ADDRESS).expect(401);
    expect(
      (await t.rest.post(`/api/v1/orders/${id}/shipping_address`, ADDRESS, alice.key).expect(405)).headers.allow,
    ).toBe('PUT');
    expect((await getOrder(id)).shipping_address).toBeNull();
  });

  it('refuses an order without hard copies and a cancelled one', async () => {
    const plain = await order({});
    expect((await putAddress(plain.id, ADDRESS).expect(422)).body.errors).toEqual({
      shipping_address: ['The order has no hard copies; a shipping address is only for orders with hard copies.'],
    });
    const unpaid = await order(withCopies, { pay: false });
    await t.rest.post(`/api/v1/orders/${unpaid.id}/cancel`, undefined, alice.key).expect(200);
    expect((await putAddress(unpaid.id, ADDRESS).expect(422)).body.errors).toEqual({
      status: ['Cannot set the shipping address while the status is cancelled.'],
    });
  });

  it('works on GraphQL with the same rules', async () => {
    const { id } = await order();
    const set = (address: string, token = alice.key) =>
      gqlRaw(
        t.rest.raw(),
        `mutation { setShippingAddress(orderId: "${id}", address: ${address}) { shippingAddress { city country } shippingAddressRequired } }`,
        { token },
      );
    const bad = await set(
      '{ name: "Jones Law", line1: "1 Rue de Rivoli", city: "Paris", postalCode: "75001", country: "XX" }',
    );
    expect(bad.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { country: ['The country field must be an ISO 3166-1 alpha-2 country code.'] },
    });
    expect(
      (await set('{ name: "J", line1: "1", city: "P", postalCode: "7", country: "FR" }', bob.key)).errors![0].extensions
        .code,
    ).toBe('NOT_FOUND');
    expect(
      (await set('{ name: "J", line1: "1", city: "P", postalCode: "7", country: "FR" }', staff)).errors![0].extensions
        .code,
    ).toMatch(/^(UNAUTHENTICATED|FORBIDDEN)$/);
    const good = await set(
      '{ name: "Jones Law", line1: "1 Rue de Rivoli", city: "Paris", postalCode: "75001", country: "fr" }',
    );
    expect(good.data).toEqual({
      setShippingAddress: { shippingAddress: { city: 'Paris', country: 'FR' }, shippingAddressRequired: false },
    });
    expect((await getOrder(id)).shipping_address).toEqual({ ...OTHER_ADDRESS, line2: null, region: null });
  });
});

describe('completion and shipment', () => {
  it('asks once for the address when the order completes without one, then ships once it is given', async () => {
    const { id, number } = await order();
    expect((await markShipped(id)).errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { status: ['Cannot ship the order while the status is processing.'] },
    });
    await complete(id);
    expect(await getOrder(id)).toMatchObject({ status: 'completed', shipping_address_required: true });
    const asked = await mails('shipping_address_needed', number);
    expect(asked).toHaveLength(1);
    // A person is sent to a page, not to the API (D30).
    expect(asked[0].text).toContain(`${t.config.appUrl}/shipping-address/${id}?signature=`);
    expect(asked[0].text).not.toMatch(/PUT|\/api\//);
    expect((await markShipped(id)).errors![0].extensions.errors).toEqual({
      shippingAddress: ['The client has not given a shipping address yet.'],
    });

    expect((await putAddress(id, ADDRESS).expect(200)).body.data).toMatchObject({
      status: 'completed',
      shipping_address: STORED,
      shipping_address_required: false,
    });
    expect((await markShipped(id, '1Z999AA10123456784', alice.key)).errors![0].extensions.code).toMatch(
      /^(UNAUTHENTICATED|FORBIDDEN)$/,
    );
    const shipped = await markShipped(id);
    expect(shipped.data).toEqual({
      markShipped: {
        shipment: { carrier: 'UPS', trackingNumber: '1Z999AA10123456784', shippedAt: expect.stringMatching(/Z$/) },
      },
    });
    expect((await getOrder(id)).shipment).toEqual({
      carrier: 'UPS',
      tracking_number: '1Z999AA10123456784',
      shipped_at: expect.stringMatching(/Z$/),
    });
    expect((await mails('hard_copies_shipped', number))[0].text).toContain('1Z999AA10123456784');
    expect(await mails('shipping_address_needed', number)).toHaveLength(1);
    // Too late to send them elsewhere through the API.
    expect((await putAddress(id, OTHER_ADDRESS).expect(422)).body.errors).toEqual({
      shipment: ['The hard copies have already shipped; contact us to redirect them.'],
    });
  });

  it('corrects the shipment when staff mark it again (audited, the client told), and changes nothing for the same details', async () => {
    const { id, number } = await order({ ...withCopies, shipping_address: ADDRESS });
    await complete(id);
    expect(await mails('shipping_address_needed', number)).toHaveLength(0);
    const first = (await markShipped(id, '1ZWRONG')).data as { markShipped: { shipment: { shippedAt: string } } };
    const corrected = await markShipped(id, '1ZRIGHT');
    expect(corrected.data).toEqual({
      markShipped: {
        shipment: { carrier: 'UPS', trackingNumber: '1ZRIGHT', shippedAt: first.markShipped.shipment.shippedAt },
      },
    });
    expect((await markShipped(id, '1ZRIGHT')).errors).toBeUndefined();
    expect([await auditCount(id, 'order.mark_shipped'), await auditCount(id, 'order.correct_shipment')]).toEqual([
      1, 1,
    ]);
    const [correction] = await sql<{ details: object }>(
      `SELECT details FROM audit_entries WHERE resource_id = ? AND action = 'order.correct_shipment'`,
      [id],
    );
    expect(correction.details).toEqual({
      carrier: 'UPS',
      tracking_number: '1ZRIGHT',
      from_carrier: 'UPS',
      from_tracking_number: '1ZWRONG',
    });
    const sent = await mails('hard_copies_shipped', number);
    expect(sent.map((mail) => mail.subject)).toEqual([
      `Order ${number}: corrected tracking for your hard copies`,
      `Order ${number}: your hard copies have shipped`,
    ]);
  });

  it('refuses to ship an order without hard copies', async () => {
    const { id } = await order({});
    await complete(id);
    expect((await markShipped(id)).errors![0].extensions.errors).toEqual({
      order: ['The order has no hard copies to ship.'],
    });
  });
});

describe('at the same moment', () => {
  it('two addresses: both answered, the last one kept, each change audited', async () => {
    const { id } = await order();
    const answers = await Promise.all([putAddress(id, ADDRESS), putAddress(id, OTHER_ADDRESS)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const kept = (await getOrder(id)).shipping_address;
    expect([STORED.city, OTHER_ADDRESS.city]).toContain(kept.city);
    expect(await auditCount(id, 'order.set_shipping_address')).toBe(2);
    const [last] = await sql<{ details: { to: { city: string } } }>(
      `SELECT details FROM audit_entries WHERE resource_id = ? AND action = 'order.set_shipping_address' ORDER BY created_at DESC LIMIT 1`,
      [id],
    );
    expect(last.details.to.city).toBe(kept.city);
  });

  it('an address and the shipment: the parcel goes to the address it was shipped with, or the address is refused', async () => {
    for (let round = 0; round < 3; round++) {
      const { id } = await order({ ...withCopies, shipping_address: OTHER_ADDRESS });
      await complete(id);
      const [put, shipped] = await Promise.all([putAddress(id, ADDRESS), markShipped(id)]);
      expect(shipped.errors).toBeUndefined();
      const final = await getOrder(id);
      if (put.status === 200) expect(final.shipping_address).toEqual(STORED);
      else {
        expect(put.status).toBe(422);
        expect(put.body.errors).toEqual({
          shipment: ['The hard copies have already shipped; contact us to redirect them.'],
        });
        expect(final.shipping_address.city).toBe(OTHER_ADDRESS.city);
      }
      expect(await auditCount(id, 'order.mark_shipped')).toBe(1);
    }
  });

  it('an address and the completion: asked for once exactly when the order completed without it', async () => {
    for (let round = 0; round < 4; round++) {
      const { id, number } = await order();
      const [put] = await Promise.all([putAddress(id, ADDRESS), complete(id)]);
      expect(put.status).toBe(200);
      expect(await getOrder(id)).toMatchObject({
        status: 'completed',
        shipping_address: STORED,
        shipping_address_required: false,
      });
      const [set] = await sql<{ from_state: string }>(
        `SELECT from_state FROM audit_entries WHERE resource_id = ? AND action = 'order.set_shipping_address'`,
        [id],
      );
      expect(await mails('shipping_address_needed', number)).toHaveLength(set.from_state === 'completed' ? 1 : 0);
    }
  });
});

describe('the address page a person is e-mailed (D30)', () => {
  /** The signed link of an order's `shipping_address_needed` e-mail, as a path. */
  async function linkOf(id: string, number: string): Promise<string> {
    const [mail] = await mails('shipping_address_needed', number);
    const link = mail.text!.match(/https?:\/\/\S+\/shipping-address\/\S+/)![0];
    expect(link).toContain(id);
    return link.replace(t.config.appUrl, '');
  }
  const form = (path: string, fields: Record<string, string>) => t.rest.raw().post(path).type('form').send(fields);
  const page = (path: string) => t.rest.raw().get(path);

  it('shows a form, refuses bad fields on the page (escaped), and saves the address as the REST PUT does', async () => {
    const { id, number } = await order();
    await complete(id);
    const link = await linkOf(id, number);

    const shown = await page(link).expect(200);
    expect(shown.headers['content-type']).toMatch(/^text\/html/);
    expect(shown.headers['content-security-policy']).toContain("default-src 'none'");
    expect(shown.headers['content-security-policy']).toContain("form-action 'self'");
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.text).toContain(`order ${number}`);
    expect(shown.text).toContain(`action="${link.replace(/&/g, '&#38;')}"`);
    expect(shown.text).not.toMatch(/<script/i);

    const bad = await form(link, { ...ADDRESS, name: '<b>Smith</b>', country: 'XX', postal_code: '' }).expect(422);
    expect(bad.text).toContain('The country field must be an ISO 3166-1 alpha-2 country code.');
    expect(bad.text).toContain('aria-invalid="true"');
    expect(bad.text).toContain('&#60;b&#62;Smith&#60;/b&#62;');
    expect(bad.text).not.toContain('<b>Smith</b>');
    expect((await getOrder(id)).shipping_address).toBeNull();

    const saved = await form(link, { ...ADDRESS, line2: '', region: '' }).expect(200);
    expect(saved.text).toContain('Address saved');
    expect(await getOrder(id)).toMatchObject({
      shipping_address: { ...STORED, line2: null, region: null },
      shipping_address_required: false,
    });
    expect(await auditCount(id, 'order.set_shipping_address')).toBe(1);
    // Shown again, the form holds the address given.
    expect((await page(link).expect(200)).text).toContain('value="100 Court St"');
  });

  it('answers a link that is not ours, or names another order, with 403 and changes nothing', async () => {
    const { id, number } = await order();
    const other = await order();
    await complete(id);
    const link = await linkOf(id, number);
    const signature = new URL(link, t.config.appUrl).searchParams.get('signature')!;
    for (const bad of [
      `/shipping-address/${other.id}?signature=${signature}`,
      `/shipping-address/${id}?signature=${signature.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}`,
      `/shipping-address/${id}`,
      `/shipping-address/not-an-id?signature=${signature}`,
    ]) {
      expect((await page(bad).expect(403)).text).toContain('This link is not valid.');
      await form(bad, ADDRESS).expect(403);
    }
    expect((await getOrder(other.id)).shipping_address).toBeNull();
    expect((await getOrder(id)).shipping_address).toBeNull();
  });

  it('says so, without a form, once the hard copies have shipped', async () => {
    const { id, number } = await order();
    await complete(id);
    const link = await linkOf(id, number);
    await putAddress(id, ADDRESS).expect(200);
    expect((await markShipped(id)).errors).toBeUndefined();
    const shown = await page(link).expect(422);
    expect(shown.text).toContain('The hard copies have already shipped; contact us to redirect them.');
    expect(shown.text).not.toContain('<form');
    expect((await form(link, OTHER_ADDRESS).expect(422)).text).toContain('already shipped');
    expect((await getOrder(id)).shipping_address).toEqual(STORED);
  });
});
