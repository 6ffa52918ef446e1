import { SentEmailsDocument } from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { gqlRaw } from '../helpers/graphql-raw';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** D22: hard copies ship somewhere, on both doors, and staff record how they went. */
let t: TestApp;
let staff: string;
let alice: TestAccount;
let fileId: string;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(600)] }), 'birth-certificate.docx')).id;
});
afterAll(() => t.close());

const ADDRESS = { name: 'Smith & Partners LLP', line1: '100 Court St', line2: 'Suite 4', city: 'Springfield', region: 'IL', postal_code: '62701', country: 'us' };
const quoteBody = (extra: object) => ({ source_language: 'es', target_language: 'en', service_type: 'certified', file_ids: [fileId], ...extra });
const withCopies = { addons: [{ code: 'hard_copy', quantity: 2 }] };

describe('shipping address on quotes (REST)', () => {
  it('is required with hard copies, and only with them', async () => {
    const missing = await t.rest.post('/api/v1/quotes', quoteBody(withCopies), alice.key).expect(422);
    expect(missing.body.errors).toEqual({ shipping_address: ['The shipping address field is required when hard copies are ordered.'] });
    const unused = await t.rest.post('/api/v1/quotes', quoteBody({ shipping_address: ADDRESS }), alice.key).expect(422);
    expect(unused.body.errors).toEqual({ shipping_address: ['The shipping address field is only for quotes with hard copies.'] });
  });

  it('names each wrong field under shipping_address, and stores nothing', async () => {
    const before = (await t.rest.get('/api/v1/quotes', alice.key).expect(200)).body.meta.total;
    const { postal_code: _dropped, ...noPostalCode } = ADDRESS;
    const res = await t.rest.post('/api/v1/quotes', quoteBody({ ...withCopies, shipping_address: { ...noPostalCode, country: 'XX', name: '' } }), alice.key).expect(422);
    expect(res.body.errors).toEqual({
      'shipping_address.name': ['The shipping address.name field is required.'],
      'shipping_address.postal_code': ['The shipping address.postal code field is required.'],
      'shipping_address.country': ['The country field must be an ISO 3166-1 alpha-2 country code.'],
    });
    expect((await t.rest.post('/api/v1/quotes', quoteBody({ ...withCopies, shipping_address: 'Springfield' }), alice.key).expect(422)).body.errors).toEqual({
      shipping_address: ['The shipping address field must be an object.'],
    });
    expect((await t.rest.get('/api/v1/quotes', alice.key).expect(200)).body.meta.total).toBe(before);
  });
});

describe('from quote to shipped order', () => {
  it('carries the address to the order, and shows the shipment staff record on both doors, e-mailing the client', async () => {
    const quote = (await t.rest.post('/api/v1/quotes', quoteBody({ ...withCopies, shipping_address: ADDRESS }), alice.key).expect(201)).body.data;
    const stored = { ...ADDRESS, country: 'US' };
    expect(quote.shipping_address).toEqual(stored);
    const converted = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201)).body;
    const id = converted.data.id as string;
    expect((await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data).toMatchObject({ shipping_address: stored, shipment: null });

    const markShipped = (orderId: string, token: string) =>
      gqlRaw(t.rest.raw(), `mutation { markShipped(orderId: "${orderId}", carrier: "UPS", trackingNumber: "1Z999AA10123456784") { shipment { carrier trackingNumber shippedAt } } }`, { token });
    // Not before it is paid.
    expect((await markShipped(id, staff)).errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', errors: { status: ['Cannot ship the order while the status is pending_payment.'] } });
    await t.rest.raw().post(`${converted.provider_approval_url.replace(t.config.appUrl, '')}/pay`).type('form').send({}).expect(200);
    expect((await markShipped(id, alice.key)).errors![0].extensions!.code).toMatch(/^(UNAUTHENTICATED|FORBIDDEN)$/);

    const shipped = await markShipped(id, staff);
    expect(shipped.errors).toBeUndefined();
    const shippedAt = (shipped.data as { markShipped: { shipment: { shippedAt: string } } }).markShipped.shipment.shippedAt;
    expect(shipped.data).toEqual({ markShipped: { shipment: { carrier: 'UPS', trackingNumber: '1Z999AA10123456784', shippedAt: expect.stringMatching(/Z$/) } } });
    expect((await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data.shipment).toEqual({
      carrier: 'UPS',
      tracking_number: '1Z999AA10123456784',
      shipped_at: shippedAt,
    });
    const partner = await gqlRaw(t.rest.raw(), `{ order(id: "${id}") { shippingAddress { postalCode country } shipment { carrier } } }`, { token: alice.key });
    expect(partner.data).toEqual({ order: { shippingAddress: { postalCode: '62701', country: 'US' }, shipment: { carrier: 'UPS' } } });
    const mail = await t.gql(SentEmailsDocument, { to: alice.email }, staff);
    expect(mail.data!.sentEmails.items.find((message) => message.subject.includes(converted.data.number))).toMatchObject({ kind: 'hard_copies_shipped' });
    expect(mail.data!.sentEmails.items[0].text).toContain('1Z999AA10123456784');

    expect((await markShipped(id, staff)).errors![0].extensions!.errors).toEqual({ shipment: ['The hard copies are already marked shipped.'] });
  });

  it('records a shipment once when two staff mark it at the same moment', async () => {
    const quote = (await t.rest.post('/api/v1/quotes', quoteBody({ ...withCopies, shipping_address: ADDRESS }), alice.key).expect(201)).body.data;
    const converted = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201)).body;
    await t.rest.raw().post(`${converted.provider_approval_url.replace(t.config.appUrl, '')}/pay`).type('form').send({}).expect(200);
    const mark = (tracking: string) =>
      gqlRaw(t.rest.raw(), `mutation { markShipped(orderId: "${converted.data.id}", carrier: "UPS", trackingNumber: "${tracking}") { id } }`, { token: staff });
    const answers = await Promise.all([mark('1ZA'), mark('1ZB'), mark('1ZC')]);
    expect(answers.filter((answer) => !answer.errors)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.errors)) {
      expect(refused.errors![0].extensions!.errors).toEqual({ shipment: ['The hard copies are already marked shipped.'] });
    }
    const mail = await t.gql(SentEmailsDocument, { to: alice.email }, staff);
    expect(mail.data!.sentEmails.items.filter((message) => message.kind === 'hard_copies_shipped' && message.subject.includes(converted.data.number))).toHaveLength(1);
    const audit = await t.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM audit_entries WHERE resource_id = ? AND action = 'order.mark_shipped'`, [converted.data.id]);
    expect(audit[0].n).toBe(1);
  });

  it('refuses to ship an order without hard copies', async () => {
    const quote = (await t.rest.post('/api/v1/quotes', quoteBody({}), alice.key).expect(201)).body.data;
    expect(quote.shipping_address).toBeNull();
    const converted = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201)).body;
    const res = await gqlRaw(t.rest.raw(), `mutation { markShipped(orderId: "${converted.data.id}", carrier: "UPS", trackingNumber: "1Z") { id } }`, { token: staff });
    expect(res.errors![0].extensions!.errors).toEqual({ order: ['The order has no hard copies to ship.'] });
  });
});

describe('shipping address on quotes (GraphQL)', () => {
  it('answers the same refusals, keyed as the GraphQL input names the fields', async () => {
    const input = `{ sourceLanguage: "es", targetLanguage: "en", serviceType: CERTIFIED, fileIds: ["${fileId}"], addons: [{ code: "hard_copy" }],
      shippingAddress: { name: "Smith & Partners LLP", line1: "100 Court St", city: "Springfield", postalCode: "", country: "ZZ" } }`;
    const res = await gqlRaw(t.rest.raw(), `mutation { createQuote(input: ${input}) { id shippingAddress { city } } }`, { token: alice.key });
    expect(res.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: {
        'shippingAddress.postalCode': ['The shipping address.postal code field is required.'],
        'shippingAddress.country': ['The country field must be an ISO 3166-1 alpha-2 country code.'],
      },
    });
  });
});
