import {
  ApproveAccountDocument,
  ConfirmInterpretationAvailabilityDocument,
  RegenerateApiKeyDocument,
  SuspendAccountDocument,
} from '../graphql/generated';
import { docx, jpeg, pdf, png, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { assertMatchesOpenApi } from '../helpers/openapi-validator';
import { pollUntil } from '../helpers/poll';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The contract guard: every request an integrator can write from the REST contract alone (contract sections 2-8),
 * sent as it writes them (its field names, no others: no field a later decision added), through real HTTP, with the
 * answers it documents. Fields it documents must be there; more are allowed (D4). Whatever else the service grows,
 * this file must stay green.
 */
let t: TestApp;
let staff: string;
let client: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  staff = await createStaffToken(t);
  [client, other] = [await createApprovedAccount(t, staff), await createApprovedAccount(t, staff)];
});
afterAll(() => t.close());

const BASE = '/api/v1';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ORDER_NUMBER = /^[A-Z0-9]+-\d{4}-[A-Z0-9]{6}$/;
const BOOKING_NUMBER = /^[A-Z0-9]+-INT-\d{4}-[A-Z0-9]{6}$/;

/** Section 5: `Authorization: Bearer <API_KEY>` and `Accept: application/json` on every call. */
function call(
  method: 'get' | 'post' | 'delete',
  path: string,
  { body, key = client.key }: { body?: object; key?: string | null } = {},
) {
  const test = t.rest.raw()[method](`${BASE}${path}`).set('Accept', 'application/json');
  if (key) test.set('Authorization', `Bearer ${key}`);
  return (body === undefined ? test : test.send(body)).expect(assertMatchesOpenApi);
}

/** Section 4.3: multipart with part `file` and, as written, part `type` = `source`. */
function upload(content: Buffer, filename: string, contentType: string, type: string | null = 'source') {
  const test = t.rest
    .raw()
    .post(`${BASE}/files`)
    .set('Accept', 'application/json')
    .set('Authorization', `Bearer ${client.key}`);
  if (type !== null) test.field('type', type);
  return test.attach('file', content, { filename, contentType }).expect(assertMatchesOpenApi);
}

/** Section 7: 422 is `message` plus `errors` naming fields. */
function expectValidationError(body: { message: unknown; errors: Record<string, unknown> }, field?: string) {
  expect(typeof body.message).toBe('string');
  for (const messages of Object.values(body.errors))
    expect(messages).toEqual(expect.arrayContaining([expect.any(String)]));
  if (field) expect(Object.keys(body.errors)).toContain(field);
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().replace('Z', '+00:00');

const uploaded: Record<string, string> = {};
const sourceIds = () => [uploaded.docx];

describe('2.1, 2.2, 2.3, 4.1, 4.2: the catalog, without a key', () => {
  it('GET /languages lists more than 200 languages as {code, name}', async () => {
    const res = await call('get', '/languages', { key: null }).expect(200);
    expect(res.body.data.length).toBeGreaterThan(200);
    for (const language of res.body.data)
      expect(language).toEqual(expect.objectContaining({ code: expect.any(String), name: expect.any(String) }));
  });

  it('GET /pricing shows the rates and add-ons the contract prices', async () => {
    const { data } = (await call('get', '/pricing', { key: null }).expect(200)).body;
    expect(data.services).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ service_type: 'certified', unit: 'page', unit_price_cents: 990, currency: 'USD' }),
        expect.objectContaining({ service_type: 'standard', unit: 'word', unit_price_cents: 1, currency: 'USD' }),
      ]),
    );
    expect(data.addons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'notarization',
          name: expect.any(String),
          pricing_type: 'flat',
          price_cents: 0,
          currency: 'USD',
        }),
        expect.objectContaining({
          code: 'hard_copy',
          name: expect.any(String),
          pricing_type: 'per_copy',
          price_cents: 1495,
          currency: 'USD',
        }),
        expect.objectContaining({
          code: 'rush_2h',
          name: expect.any(String),
          pricing_type: 'flat',
          price_cents: 3995,
          currency: 'USD',
        }),
      ]),
    );
  });
});

describe('2.4, 4.3-4.5: files', () => {
  it.each([
    ['pdf', async () => pdf([words(300), words(200)]), 'affidavit.pdf', 'application/pdf'],
    [
      'docx',
      async () => docx({ paragraphs: [words(600)] }),
      'birth-certificate.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    ['jpg', async () => jpeg(), 'passport.jpg', 'image/jpeg'],
    ['png', async () => png(), 'stamp.png', 'image/png'],
  ])(
    'POST /files takes a %s with type=source; counts are null in the answer',
    async (kind, make, filename, contentType) => {
      const res = await upload(await make(), filename, contentType).expect(201);
      expect(res.body.data).toMatchObject({
        id: expect.any(String),
        type: 'source',
        name: filename,
        mime_type: expect.any(String),
        size_bytes: expect.any(Number),
        page_count: null,
        word_count: null,
      });
      expect(res.body.data.created_at).toMatch(TIMESTAMP);
      expect(res.body.data).not.toHaveProperty('download_url');
      uploaded[kind] = res.body.data.id;
    },
  );

  it('POST /files is accepted without type', async () => {
    const res = await upload(
      await docx({ paragraphs: [words(10)] }),
      'note.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      null,
    ).expect(201);
    uploaded.untyped = res.body.data.id;
  });

  it('POST /files without the file part is 422', async () => {
    const res = await t.rest
      .raw()
      .post(`${BASE}/files`)
      .set('Accept', 'application/json')
      .set('Authorization', `Bearer ${client.key}`)
      .field('type', 'source')
      .expect(422);
    expectValidationError(res.body, 'file');
  });

  it('GET /files/{id} answers the file; its counts arrive once analysed', async () => {
    const file = await pollUntil(
      async () => (await call('get', `/files/${uploaded.docx}`).expect(200)).body.data,
      (data) => data.page_count !== null,
      { timeoutMs: 30_000, failure: () => 'the docx was never counted' },
    );
    expect(file).toMatchObject({
      id: uploaded.docx,
      type: 'source',
      name: 'birth-certificate.docx',
      page_count: 3,
      word_count: 600,
    });
  });

  it('DELETE /files/{id} removes an unattached file, then it is 404', async () => {
    await call('delete', `/files/${uploaded.untyped}`).expect(204);
    await call('get', `/files/${uploaded.untyped}`).expect(404);
  });
});

describe('2.5, 3.3, 4.6-4.8: quotes', () => {
  const quoteFields = [
    'id',
    'status',
    'service_type',
    'unit_type',
    'unit_count',
    'subtotal_cents',
    'addons_total_cents',
    'total_cents',
    'currency',
    'expires_at',
  ];

  it.each([
    ['certified, no add-ons', { service_type: 'certified' }, 'page', 3, 2970, 0],
    ['standard, no add-ons', { service_type: 'standard' }, 'word', 600, 600, 0],
    [
      'certified with notarization',
      { service_type: 'certified', addons: [{ code: 'notarization' }] },
      'page',
      3,
      2970,
      0,
    ],
    [
      'certified with notarization, quantity 1',
      { service_type: 'certified', addons: [{ code: 'notarization', quantity: 1 }] },
      'page',
      3,
      2970,
      0,
    ],
    [
      'certified with one hard copy',
      { service_type: 'certified', addons: [{ code: 'hard_copy' }] },
      'page',
      3,
      2970,
      1495,
    ],
    [
      'certified with three hard copies',
      { service_type: 'certified', addons: [{ code: 'hard_copy', quantity: 3 }] },
      'page',
      3,
      2970,
      4485,
    ],
    ['standard with rush', { service_type: 'standard', addons: [{ code: 'rush_2h' }] }, 'word', 600, 600, 3995],
    [
      'standard with rush, quantity 1',
      { service_type: 'standard', addons: [{ code: 'rush_2h', quantity: 1 }] },
      'word',
      600,
      600,
      3995,
    ],
    [
      'standard with a hard copy',
      { service_type: 'standard', addons: [{ code: 'hard_copy', quantity: 1 }] },
      'word',
      600,
      600,
      1495,
    ],
    [
      'certified with every add-on and a reference',
      {
        service_type: 'certified',
        addons: [{ code: 'notarization' }, { code: 'hard_copy', quantity: 2 }, { code: 'rush_2h' }],
        reference: 'Matter 114',
      },
      'page',
      3,
      2970,
      6985,
    ],
  ])('POST /quotes: %s', async (_label, fields, unitType, unitCount, subtotal, addonsTotal) => {
    const body = { source_language: 'es', target_language: 'en', file_ids: sourceIds(), ...fields };
    const { data } = (await call('post', '/quotes', { body }).expect(201)).body;
    expect(Object.keys(data)).toEqual(expect.arrayContaining(quoteFields));
    expect(data).toMatchObject({
      status: 'priced',
      service_type: body.service_type,
      unit_type: unitType,
      unit_count: unitCount,
      subtotal_cents: subtotal,
      addons_total_cents: addonsTotal,
      total_cents: subtotal + addonsTotal,
      currency: 'USD',
    });
    expect(data.expires_at).toMatch(TIMESTAMP);
  });

  it('POST /quotes prices a scanned image by unit_count', async () => {
    const body = {
      source_language: 'es',
      target_language: 'en',
      service_type: 'certified',
      file_ids: [uploaded.png],
      unit_count: 2,
    };
    expect((await call('post', '/quotes', { body }).expect(201)).body.data).toMatchObject({
      unit_type: 'page',
      unit_count: 2,
      subtotal_cents: 1980,
    });
  });

  it('POST /quotes on a text PDF and a JPG with unit_count, as a mixed filing', async () => {
    const body = {
      source_language: 'fr',
      target_language: 'en',
      service_type: 'certified',
      file_ids: [uploaded.pdf, uploaded.jpg],
      unit_count: 1,
    };
    const { data } = (await call('post', '/quotes', { body }).expect(201)).body;
    expect(data).toMatchObject({ status: 'priced', unit_type: 'page' });
    expect(data.unit_count).toBeGreaterThanOrEqual(3);
  });

  it('POST /quotes without service_type is 422 naming it', async () => {
    const res = await call('post', '/quotes', {
      body: { source_language: 'es', target_language: 'en', file_ids: sourceIds() },
    }).expect(422);
    expectValidationError(res.body, 'service_type');
  });

  it('GET /quotes lists newest first, per_page up to 100', async () => {
    const res = await call('get', '/quotes?per_page=100').expect(200);
    const dates = res.body.data.map((quote: { created_at: string }) => quote.created_at);
    expect(res.body.data.length).toBeGreaterThan(5);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('DELETE /quotes/{id} discards a priced quote; then its file can be deleted', async () => {
    const file = (
      await upload(
        await docx({ paragraphs: [words(5)] }),
        'draft.docx',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ).expect(201)
    ).body.data.id;
    const quote = (
      await call('post', '/quotes', {
        body: { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [file] },
      }).expect(201)
    ).body.data;
    expectValidationError((await call('delete', `/files/${file}`).expect(422)).body);
    await call('delete', `/quotes/${quote.id}`).expect(204);
    await call('delete', `/files/${file}`).expect(204);
  });
});

describe('2.6, 3.1, 4.9-4.12: orders', () => {
  const quote = async (fields: object = {}) =>
    (
      await call('post', '/quotes', {
        body: {
          source_language: 'es',
          target_language: 'en',
          service_type: 'standard',
          file_ids: sourceIds(),
          ...fields,
        },
      }).expect(201)
    ).body.data;
  const pay = (approvalUrl: string) =>
    t.rest
      .raw()
      .post(`${approvalUrl.replace(t.config.appUrl, '')}/pay`)
      .type('form')
      .send({})
      .expect(200);
  const order = async (id: string) => (await call('get', `/orders/${id}`).expect(200)).body.data;

  it('POST /quotes/{id}/convert without a body: {data: {id, number, status}, provider_approval_url}', async () => {
    const res = await call('post', `/quotes/${(await quote()).id}/convert`).expect(201);
    expect(res.body).toEqual({
      data: { id: expect.any(String), number: expect.stringMatching(ORDER_NUMBER), status: 'pending_payment' },
      provider_approval_url: expect.any(String),
    });
  });

  it('a standard order, converted with redirect_url, paid, then completed with no client action, downloads its translation', async () => {
    const converted = (
      await call('post', `/quotes/${(await quote({ addons: [{ code: 'rush_2h', quantity: 1 }] })).id}/convert`, {
        body: { redirect_url: 'https://portal.example.test/back' },
      }).expect(201)
    ).body;
    const pending = await order(converted.data.id);
    expect(pending).toMatchObject({
      id: converted.data.id,
      number: converted.data.number,
      status: 'pending_payment',
      service_type: 'standard',
      source_language: 'es',
      target_language: 'en',
      total_cents: 4595,
      currency: 'USD',
      completed_at: null,
    });
    expect(pending.files).toEqual([expect.objectContaining({ type: 'source', name: 'birth-certificate.docx' })]);
    expect(pending.files[0]).not.toHaveProperty('download_url');

    await t.rest
      .raw()
      .post(`${converted.provider_approval_url.replace(t.config.appUrl, '')}/pay`)
      .type('form')
      .send({})
      .expect(303);
    const done = await pollUntil(
      () => order(converted.data.id),
      (data) => data.status === 'completed',
      { timeoutMs: 60_000, failure: (data) => `still ${data.status}` },
    );
    expect(done.completed_at).toMatch(TIMESTAMP);
    const translation = done.files.find((file: { type: string }) => file.type === 'translation');
    expect(translation.download_url).toMatch(
      new RegExp(`^${t.config.appUrl}/api/v1/files/[^/?]+/download\\?.*expires=`),
    );
    await t.rest.raw().get(translation.download_url.replace(t.config.appUrl, '')).expect(200);
    const [listed] = (await call('get', '/orders?status=completed').expect(200)).body.data.filter(
      (entry: { id: string }) => entry.id === converted.data.id,
    );
    expect(listed).toMatchObject({ id: converted.data.id, status: 'completed' });
  });

  it('a certified order with notarization and hard copies, paid, waits in_review', async () => {
    const priced = await quote({
      service_type: 'certified',
      addons: [{ code: 'notarization' }, { code: 'hard_copy', quantity: 2 }],
    });
    const converted = (await call('post', `/quotes/${priced.id}/convert`).expect(201)).body;
    await pay(converted.provider_approval_url);
    const reviewed = await pollUntil(
      () => order(converted.data.id),
      (data) => data.status === 'in_review',
      { timeoutMs: 60_000, failure: (data) => `still ${data.status}` },
    );
    expect(reviewed).toMatchObject({ service_type: 'certified', total_cents: 2970 + 2990, completed_at: null });
    // Staff finalize it; the client cannot cancel now.
    expectValidationError((await call('post', `/orders/${converted.data.id}/cancel`).expect(422)).body);
  });

  it('converting a quote that is not priced any more is refused', async () => {
    const priced = await quote();
    await call('post', `/quotes/${priced.id}/convert`).expect(201);
    expectValidationError((await call('post', `/quotes/${priced.id}/convert`).expect(422)).body);
  });

  it('POST /orders/{id}/cancel while pending_payment cancels; a cancelled order cannot be cancelled again', async () => {
    const converted = (await call('post', `/quotes/${(await quote()).id}/convert`).expect(201)).body;
    expect((await call('post', `/orders/${converted.data.id}/cancel`).expect(200)).body.data).toMatchObject({
      id: converted.data.id,
      status: 'cancelled',
    });
    expectValidationError((await call('post', `/orders/${converted.data.id}/cancel`).expect(422)).body);
    expect(
      (await call('get', '/orders?status=cancelled').expect(200)).body.data.map((entry: { id: string }) => entry.id),
    ).toContain(converted.data.id);
  });

  it("GET /orders lists the caller's orders only", async () => {
    const mine = (await call('get', '/orders').expect(200)).body.data;
    expect(mine.length).toBeGreaterThan(3);
    expect((await call('get', '/orders', { key: other.key }).expect(200)).body.data).toEqual([]);
    await call('get', `/orders/${mine[0].id}`, { key: other.key }).expect(404);
  });
});

describe('2.7, 3.2, 4.13-4.16: interpretation bookings', () => {
  const book = (fields: object) =>
    call('post', '/interpretation-bookings', {
      body: { source_language: 'es', target_language: 'en', scheduled_at: inDays(30), ...fields },
    });
  const confirm = async (id: string) => {
    const res = await t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'Ana Ruiz' }, staff);
    expect(res.errors).toBeUndefined();
  };

  it.each([
    [
      'on_site with a location and a setting',
      { mode: 'on_site', setting: 'deposition', location: '100 Court St, Springfield', duration_hours: 3 },
      'deposition',
      3,
    ],
    [
      'video_remote with platform notes, setting defaulted',
      { mode: 'video_remote', duration_hours: 1.5, video_platform_notes: 'Zoom link to follow' },
      'other',
      2,
    ],
    [
      'sight_translation with a reference',
      { mode: 'sight_translation', setting: 'court', duration_hours: 2, reference: 'Case 22-114' },
      'court',
      2,
    ],
    ['asl', { mode: 'asl', setting: 'meeting', duration_hours: 4 }, 'meeting', 4],
    ['ai_conference', { mode: 'ai_conference', setting: 'conference', duration_hours: 0.5 }, 'conference', 2],
  ])('POST /interpretation-bookings: %s', async (_label, fields, setting, billable) => {
    const { data } = (await book(fields).expect(201)).body;
    expect(data).toMatchObject({
      id: expect.any(String),
      number: expect.stringMatching(BOOKING_NUMBER),
      status: 'requested',
      mode: (fields as { mode: string }).mode,
      setting,
      duration_hours: (fields as { duration_hours: number }).duration_hours,
      billable_hours: billable,
      unit_price_cents: expect.any(Number),
      total_cents: billable * data.unit_price_cents,
      currency: 'USD',
      payment: { provider: expect.any(String), provider_order_id: null, approval_url: null, paid_at: null },
    });
    expect(data.scheduled_at).toMatch(TIMESTAMP);
  });

  it('scheduled_at with an offset is normalized to UTC', async () => {
    const { data } = (
      await book({ mode: 'video_remote', duration_hours: 2, scheduled_at: '2030-03-04T09:30:00-05:00' }).expect(201)
    ).body;
    expect(data.scheduled_at).toBe('2030-03-04T14:30:00.000000Z');
  });

  it('refuses on_site without a location and a start that is not in the future', async () => {
    expectValidationError((await book({ mode: 'on_site', duration_hours: 2 }).expect(422)).body, 'location');
    expectValidationError(
      (await book({ mode: 'video_remote', duration_hours: 2, scheduled_at: inDays(-1) }).expect(422)).body,
      'scheduled_at',
    );
  });

  it('requested -> awaiting_payment (staff) -> confirmed (paid); a confirmed booking cannot be cancelled', async () => {
    const { id } = (await book({ mode: 'video_remote', duration_hours: 2 }).expect(201)).body.data;
    await confirm(id);
    const awaiting = (await call('get', `/interpretation-bookings/${id}`).expect(200)).body.data;
    expect(awaiting).toMatchObject({
      status: 'awaiting_payment',
      payment: { provider_order_id: expect.any(String), approval_url: expect.any(String), paid_at: null },
    });
    await t.rest
      .raw()
      .post(`${awaiting.payment.approval_url.replace(t.config.appUrl, '')}/pay`)
      .type('form')
      .send({})
      .expect(200);
    const confirmed = (await call('get', `/interpretation-bookings/${id}`).expect(200)).body.data;
    expect(confirmed.status).toBe('confirmed');
    expect(confirmed.payment.paid_at).toMatch(TIMESTAMP);
    expectValidationError((await call('post', `/interpretation-bookings/${id}/cancel`).expect(422)).body);
  });

  it('POST /interpretation-bookings/{id}/cancel from requested and from awaiting_payment', async () => {
    const requested = (await book({ mode: 'asl', duration_hours: 2 }).expect(201)).body.data;
    expect((await call('post', `/interpretation-bookings/${requested.id}/cancel`).expect(200)).body.data.status).toBe(
      'cancelled',
    );
    const awaiting = (await book({ mode: 'asl', duration_hours: 2 }).expect(201)).body.data;
    await confirm(awaiting.id);
    expect((await call('post', `/interpretation-bookings/${awaiting.id}/cancel`).expect(200)).body.data.status).toBe(
      'cancelled',
    );
    expectValidationError((await call('post', `/interpretation-bookings/${awaiting.id}/cancel`).expect(422)).body);
  });

  it("GET /interpretation-bookings lists, filters by status, and hides other accounts' bookings", async () => {
    const all = (await call('get', '/interpretation-bookings').expect(200)).body.data;
    expect(all.length).toBeGreaterThan(5);
    const cancelled = (await call('get', '/interpretation-bookings?status=cancelled').expect(200)).body.data;
    expect(cancelled.length).toBeGreaterThanOrEqual(2);
    expect(cancelled.every((booking: { status: string }) => booking.status === 'cancelled')).toBe(true);
    await call('get', `/interpretation-bookings/${all[0].id}`, { key: other.key }).expect(404);
  });
});

describe('5, 7: authentication and errors', () => {
  it('a missing or invalid key is 401', async () => {
    await call('get', '/orders', { key: null }).expect(401);
    await call('get', '/orders', { key: 'ltk_test_0000000000000000000000000000000000000000' }).expect(401);
  });

  it('a key whose account is not approved is 403', async () => {
    const account = await createApprovedAccount(t, staff);
    await t.gql(SuspendAccountDocument, { id: account.id }, staff);
    await call('get', '/quotes', { key: account.key }).expect(403);
    await t.gql(ApproveAccountDocument, { id: account.id }, staff);
    await call('get', '/quotes', { key: account.key }).expect(200);
  });

  it('a regenerated key no longer works (401 or 403)', async () => {
    const account = await createApprovedAccount(t, staff);
    await t.gql(RegenerateApiKeyDocument, { accountId: account.id }, staff);
    expect([401, 403]).toContain((await call('get', '/quotes', { key: account.key })).status);
  });

  it("another account's file and quote are 404", async () => {
    await call('get', `/files/${uploaded.docx}`, { key: other.key }).expect(404);
    const quote = (await call('get', '/quotes').expect(200)).body.data[0];
    await call('delete', `/quotes/${quote.id}`, { key: other.key }).expect(404);
  });
});
