import { newId } from '../../src/domain/shared/ids';
import { CreateQuoteDocument, DeleteQuoteDocument, QuoteDocument, QuotesDocument } from '../graphql/generated';
import { docx, png, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile, waitForAnalysis } from '../helpers/files';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** Hard copies need somewhere to go (D22). */
const MAIL_TO = {
  name: 'Smith & Partners LLP',
  line1: '100 Court St',
  city: 'Springfield',
  region: 'IL',
  postal_code: '62701',
  country: 'US',
};

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
/** Alice's files by word count ('png' has no count). */
const file: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  const staff = await createStaffToken(t);
  [alice, bob] = [await createApprovedAccount(t, staff), await createApprovedAccount(t, staff)];
  for (const count of [1, 250, 251, 600]) {
    file[count] = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(count)] }), `w${count}.docx`)).id;
  }
  file.png = (await uploadFile(t, alice.key, png(), 'scan.png')).id;
  for (const id of Object.values(file)) await waitForAnalysis(t, alice.key, id);
});
afterAll(() => t.close());

const quote = (body: object, key = alice.key) => t.rest.post('/api/v1/quotes', body, key);
const base = { source_language: 'es', target_language: 'en', service_type: 'certified' };
const countQuotes = async () =>
  (await t.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM quotes`))[0].n as number;

describe('pricing (D7, D8), to the cent', () => {
  it.each([
    ['certified, 1 word = 1 page', { file_ids: ['1'] }, 'page', 1, 990, 0],
    ['certified, 250 words = 1 page', { file_ids: ['250'] }, 'page', 1, 990, 0],
    ['certified, 251 words = 2 pages', { file_ids: ['251'] }, 'page', 2, 1980, 0],
    ['certified, three files = 1 + 2 + 3 pages', { file_ids: ['1', '251', '600'] }, 'page', 6, 5940, 0],
    [
      'standard, three files = 852 words',
      { service_type: 'standard', file_ids: ['1', '251', '600'] },
      'word',
      852,
      852,
      0,
    ],
    ['standard, 250 words', { service_type: 'standard', file_ids: ['250'] }, 'word', 250, 250, 0],
    ['certified, an image priced by unit_count', { file_ids: ['png'], unit_count: 4 }, 'page', 4, 3960, 0],
    [
      'certified, unit_count adds to the detected pages',
      { file_ids: ['251', 'png'], unit_count: 3 },
      'page',
      5,
      4950,
      0,
    ],
    [
      'standard, unit_count ignored when every file was counted',
      { service_type: 'standard', file_ids: ['600'], unit_count: 999 },
      'word',
      600,
      600,
      0,
    ],
    [
      'certified with every add-on: notarization free, 3 hard copies, rush',
      {
        file_ids: ['1'],
        addons: [{ code: 'notarization' }, { code: 'hard_copy', quantity: 3 }, { code: 'rush_2h' }],
        shipping_address: MAIL_TO,
      },
      'page',
      1,
      990,
      8480,
    ],
    [
      'standard with rush',
      { service_type: 'standard', file_ids: ['250'], addons: [{ code: 'rush_2h' }] },
      'word',
      250,
      250,
      3995,
    ],
    [
      'certified with quantity 1 on each flat add-on, as clients send every add-on (D8)',
      {
        file_ids: ['1'],
        addons: [
          { code: 'notarization', quantity: 1 },
          { code: 'rush_2h', quantity: 1 },
        ],
      },
      'page',
      1,
      990,
      3995,
    ],
    [
      'standard with rush, quantity 1',
      { service_type: 'standard', file_ids: ['250'], addons: [{ code: 'rush_2h', quantity: 1 }] },
      'word',
      250,
      250,
      3995,
    ],
    [
      'hard copies with no address, as a v1 client sends them (D22)',
      { file_ids: ['1'], addons: [{ code: 'hard_copy', quantity: 2 }] },
      'page',
      1,
      990,
      2990,
    ],
    [
      'standard with one hard copy by default',
      { service_type: 'standard', file_ids: ['250'], addons: [{ code: 'hard_copy' }], shipping_address: MAIL_TO },
      'word',
      250,
      250,
      1495,
    ],
  ])('%s', async (_label, overrides, unitType, unitCount, subtotal, addonsTotal) => {
    const body = {
      ...base,
      ...overrides,
      file_ids: overrides.file_ids.map((k) => file[k]),
    };
    const res = await quote(body).expect(201);
    expect(res.body.data).toMatchObject({
      status: 'priced',
      unit_type: unitType,
      unit_count: unitCount,
      unit_price_cents: unitType === 'page' ? 990 : 1,
      subtotal_cents: subtotal,
      addons_total_cents: addonsTotal,
      total_cents: subtotal + addonsTotal,
      currency: 'USD',
    });
  });

  it('echoes the request and prices each add-on line (D8)', async () => {
    const res = await quote({
      ...base,
      source_language: 'ES-mx',
      file_ids: [file[251], file[1]],
      addons: [{ code: 'hard_copy', quantity: 2 }, { code: 'notarization' }],
      reference: 'Matter 2026-114 / Smith',
      shipping_address: MAIL_TO,
    }).expect(201);
    const created = Date.parse(res.body.data.created_at);
    expect(res.body.data).toMatchObject({
      source_language: 'es-MX',
      target_language: 'en',
      service_type: 'certified',
      file_ids: [file[251], file[1]],
      addons: [
        { code: 'hard_copy', quantity: 2, unit_price_cents: 1495, total_cents: 2990 },
        { code: 'notarization', quantity: 1, unit_price_cents: 0, total_cents: 0 },
      ],
      reference: 'Matter 2026-114 / Smith',
    });
    expect(Date.parse(res.body.data.expires_at) - created).toBe(7 * 24 * 60 * 60 * 1000);
  });

  it('keeps its prices when the rate card changes later (D7)', async () => {
    const before = (await quote({ ...base, file_ids: [file[251]] }).expect(201)).body.data;
    await t.orm.em
      .fork()
      .getConnection()
      .execute(`UPDATE service_rates SET unit_price_cents = 1500 WHERE service_type = 'certified'`);
    try {
      const after = (await quote({ ...base, file_ids: [file[251]] }).expect(201)).body.data;
      expect(after.total_cents).toBe(3000);
      const again = (await t.rest.get(`/api/v1/quotes/${before.id}`, alice.key).expect(200)).body.data;
      expect(again).toMatchObject({ unit_price_cents: 990, total_cents: 1980 });
    } finally {
      await t.orm.em
        .fork()
        .getConnection()
        .execute(`UPDATE service_rates SET unit_price_cents = 990 WHERE service_type = 'certified'`);
    }
  });

  it('analyses files still pending before pricing them', async () => {
    const quiet = await startTestApp({ workers: false });
    try {
      const own = await createApprovedAccount(quiet, await createStaffToken(quiet));
      const fresh = await uploadFile(quiet, own.key, await docx({ paragraphs: [words(501)] }), 'fresh.docx');
      const res = await quiet.rest.post('/api/v1/quotes', { ...base, file_ids: [fresh.id] }, own.key).expect(201);
      expect(res.body.data).toMatchObject({ unit_count: 3, total_cents: 2970 });
    } finally {
      await quiet.close();
    }
  });
});

describe('validation (D2, D8): every error at once, nothing created', () => {
  const cases: [string, () => object, Record<string, string[]>][] = [
    [
      'an empty body',
      () => ({}),
      {
        source_language: ['The source language field is required.'],
        target_language: ['The target language field is required.'],
        service_type: ['The service type field is required.'],
        file_ids: ['The file ids field is required.'],
      },
    ],
    [
      'unknown languages and service type',
      () => ({ source_language: 'xx-YY', target_language: 'klingon', service_type: 'premium', file_ids: [file[1]] }),
      {
        source_language: ['The selected source language is invalid.'],
        target_language: ['The selected target language is invalid.'],
        service_type: ['The selected service type is invalid.'],
      },
    ],
    [
      'the same language twice, in any case',
      () => ({ ...base, target_language: 'ES', file_ids: [file[1]] }),
      {
        target_language: ['The target language must be different from the source language.'],
      },
    ],
    ['no files', () => ({ ...base, file_ids: [] }), { file_ids: ['The file ids field must have at least 1 item.'] }],
    [
      '21 files',
      () => ({ ...base, file_ids: Array.from({ length: 21 }, newId) }),
      { file_ids: ['The file ids field must not have more than 20 items.'] },
    ],
    [
      'file_ids not a list',
      () => ({ ...base, file_ids: file[1] }),
      { file_ids: ['The file ids field must be an array.'] },
    ],
    [
      'a repeated file',
      () => ({ ...base, file_ids: [file[1], file[1]] }),
      { file_ids: ['The file ids field has a duplicate value.'] },
    ],
    [
      'a malformed file id',
      () => ({ ...base, file_ids: [file[1], 42] }),
      { file_ids: ['The file_ids.1 field must be one of your uploaded source files.'] },
    ],
    [
      'an unknown file',
      () => ({ ...base, file_ids: [newId()] }),
      { file_ids: ['The file_ids.0 field must be one of your uploaded source files.'] },
    ],
    [
      'a file without a count and no unit_count',
      () => ({ ...base, file_ids: [file.png] }),
      {
        unit_count: ['The unit count field is required when a file has no detectable page or word count.'],
      },
    ],
    [
      'a bad unit_count',
      () => ({ ...base, file_ids: [file.png], unit_count: 0 }),
      { unit_count: ['The unit count field must be at least 1.'] },
    ],
    [
      'a unit_count that is not a number',
      () => ({ ...base, file_ids: [file.png], unit_count: 'four' }),
      { unit_count: ['The unit count field must be an integer.'] },
    ],
    [
      'add-on mistakes',
      () => ({
        ...base,
        service_type: 'standard',
        file_ids: [file[1]],
        addons: [
          { code: 'notarization' },
          { code: 'rush_2h', quantity: 2 },
          { code: 'gift_wrap' },
          { code: 'hard_copy', quantity: 11 },
          { quantity: 1 },
          'x',
        ],
        shipping_address: MAIL_TO,
      }),
      {
        'addons.3.quantity': ['The addons.3.quantity field must not be greater than 10.'],
        'addons.4.code': ['The addons.4.code field is required.'],
        'addons.5': ['The addons.5 field must be an object.'],
      },
    ],
    [
      'add-on rules against the catalog',
      () => ({
        ...base,
        service_type: 'standard',
        file_ids: [file[1]],
        addons: [{ code: 'notarization' }, { code: 'rush_2h', quantity: 2 }, { code: 'gift_wrap' }],
      }),
      {
        'addons.0.code': ['Notarization is only available on certified translations.'],
        'addons.1.quantity': ['The addons.1.quantity field must be 1 for a flat add-on.'],
        'addons.2.code': ['The selected addons.2.code is invalid.'],
      },
    ],
    [
      'a quantity other than 1 on a flat add-on',
      () => ({
        ...base,
        file_ids: [file[1]],
        addons: [
          { code: 'notarization', quantity: 3 },
          { code: 'rush_2h', quantity: 1 },
        ],
      }),
      {
        'addons.0.quantity': ['The addons.0.quantity field must be 1 for a flat add-on.'],
      },
    ],
    [
      'a repeated add-on and a zero quantity',
      () => ({
        ...base,
        file_ids: [file[1]],
        addons: [{ code: 'hard_copy', quantity: 0 }, { code: 'rush_2h' }, { code: 'rush_2h' }],
        shipping_address: MAIL_TO,
      }),
      {
        'addons.0.quantity': ['The addons.0.quantity field must be at least 1.'],
        'addons.2.code': ['The addons.2.code field has a duplicate value.'],
      },
    ],
    [
      'a long reference',
      () => ({ ...base, file_ids: [file[1]], reference: 'r'.repeat(256) }),
      {
        reference: ['The reference field must not be greater than 255 characters.'],
      },
    ],
  ];

  it.each(cases)('refuses %s', async (_label, body, errors) => {
    const before = await countQuotes();
    const res = await quote(body()).expect(422);
    expect(res.body.errors).toEqual(errors);
    expect(res.body.message).toBe(
      Object.values(errors).flat().length > 1
        ? `${Object.values(errors)[0][0]} (and ${Object.values(errors).flat().length - 1} more error${Object.values(errors).flat().length > 2 ? 's' : ''})`
        : Object.values(errors)[0][0],
    );
    expect(await countQuotes()).toBe(before);
  });

  it("never lets another account's file be quoted, with the same message as an unknown id", async () => {
    const res = await quote({ ...base, file_ids: [file[1]] }, bob.key).expect(422);
    expect(res.body.errors).toEqual({ file_ids: ['The file_ids.0 field must be one of your uploaded source files.'] });
  });

  it('answers the same errors over GraphQL as BAD_USER_INPUT, keyed as the GraphQL input names them', async () => {
    const { errors } = await t.gql(
      CreateQuoteDocument,
      {
        input: {
          sourceLanguage: 'es',
          targetLanguage: 'es',
          serviceType: 'STANDARD',
          fileIds: [],
          addons: [{ code: 'notarization' }],
        },
      },
      alice.key,
    );
    expect(errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: {
        targetLanguage: ['The target language must be different from the source language.'],
        fileIds: ['The file ids field must have at least 1 item.'],
      },
    });
  });
});

describe('GET /quotes: the D3 envelope', () => {
  let mine: string[];
  let own: TestApp;
  let carol: TestAccount;
  beforeAll(async () => {
    own = await startTestApp({ databaseOf: t });
    carol = await createApprovedAccount(own, await createStaffToken(own));
    const doc = await uploadFile(own, carol.key, await docx({ paragraphs: [words(10)] }), 'c.docx');
    mine = [];
    for (let i = 0; i < 5; i++)
      mine.push(
        (
          await own.rest
            .post('/api/v1/quotes', { ...base, file_ids: [doc.id], reference: `q${i}` }, carol.key)
            .expect(201)
        ).body.data.id,
      );
  });
  afterAll(() => own.close());

  it('pages newest first with links and meta', async () => {
    const res = await own.rest.get('/api/v1/quotes?per_page=2&page=2', carol.key).expect(200);
    expect(res.body.data.map((q: { id: string }) => q.id)).toEqual([mine[2], mine[1]]);
    const path = 'http://127.0.0.1:3000/api/v1/quotes';
    expect(res.body.links).toEqual({
      first: `${path}?per_page=2&page=1`,
      last: `${path}?per_page=2&page=3`,
      prev: `${path}?per_page=2&page=1`,
      next: `${path}?per_page=2&page=3`,
    });
    expect(res.body.meta).toEqual({ current_page: 2, from: 3, last_page: 3, path, per_page: 2, to: 4, total: 5 });
  });

  it('defaults to 15 a page and shows the last page and beyond', async () => {
    const first = await own.rest.get('/api/v1/quotes', carol.key).expect(200);
    expect(first.body.meta).toMatchObject({ current_page: 1, per_page: 15, from: 1, to: 5, total: 5, last_page: 1 });
    expect(first.body.links).toMatchObject({ prev: null, next: null });
    const last = await own.rest.get('/api/v1/quotes?per_page=2&page=3', carol.key).expect(200);
    expect(last.body.data).toHaveLength(1);
    expect(last.body.links.next).toBeNull();
    const beyond = await own.rest.get('/api/v1/quotes?per_page=2&page=9', carol.key).expect(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toMatchObject({ current_page: 9, from: null, to: null, total: 5, last_page: 3 });
  });

  it.each([
    ['per_page=0', { per_page: ['The per page field must be at least 1.'] }],
    ['per_page=101', { per_page: ['The per page field must not be greater than 100.'] }],
    ['page=0', { page: ['The page field must be at least 1.'] }],
    ['page=abc', { page: ['The page field must be an integer.'] }],
    ['status=archived', { status: ['The selected status is invalid.'] }],
  ])('refuses ?%s', async (query, errors) => {
    expect((await own.rest.get(`/api/v1/quotes?${query}`, carol.key).expect(422)).body.errors).toEqual(errors);
  });

  it('derives expiry and filters on it', async () => {
    await own.orm.em
      .fork()
      .getConnection()
      .execute(`UPDATE quotes SET expires_at = now() - interval '1 minute' WHERE id = ?`, [mine[0]]);
    const expired = await own.rest.get('/api/v1/quotes?status=expired', carol.key).expect(200);
    expect(expired.body.data.map((q: { id: string; status: string }) => [q.id, q.status])).toEqual([
      [mine[0], 'expired'],
    ]);
    const priced = await own.rest.get('/api/v1/quotes?status=priced', carol.key).expect(200);
    expect(priced.body.meta.total).toBe(4);
    expect(priced.body.links.first).toBe('http://127.0.0.1:3000/api/v1/quotes?status=priced&page=1');
    const gql = await own.gql(QuotesDocument, { status: 'EXPIRED' }, carol.key);
    expect(gql.data!.quotes.items.map((q) => q.status)).toEqual(['EXPIRED']);
  });

  it("lists only the caller's quotes", async () => {
    const res = await own.rest.get('/api/v1/quotes?per_page=100', alice.key).expect(200);
    expect(res.body.data.some((q: { id: string }) => mine.includes(q.id))).toBe(false);
  });
});

describe('GET and DELETE /quotes/{id}', () => {
  it("hides other accounts' quotes and malformed ids behind 404, on both doors", async () => {
    const mine = (await quote({ ...base, file_ids: [file[1]] }).expect(201)).body.data;
    await t.rest.get(`/api/v1/quotes/${mine.id}`, bob.key).expect(404);
    await t.rest.delete(`/api/v1/quotes/${mine.id}`, bob.key).expect(404);
    await t.rest.get('/api/v1/quotes/nope', alice.key).expect(404);
    expect((await t.gql(QuoteDocument, { id: mine.id }, bob.key)).errors![0].extensions!.code).toBe('NOT_FOUND');
    expect((await t.gql(QuoteDocument, { id: mine.id }, alice.key)).data!.quote!.totalCents).toBe(990);
  });

  it('discards priced and expired quotes (204, then 404) and frees their files', async () => {
    const doc = await uploadFile(t, alice.key, await docx({ paragraphs: ['free me'] }), 'free.docx');
    const first = (await quote({ ...base, file_ids: [doc.id] }).expect(201)).body.data;
    const second = (await quote({ ...base, file_ids: [doc.id] }).expect(201)).body.data;
    await t.rest.delete(`/api/v1/files/${doc.id}`, alice.key).expect(422);

    await t.rest.delete(`/api/v1/quotes/${first.id}`, alice.key).expect(204);
    await t.rest.get(`/api/v1/quotes/${first.id}`, alice.key).expect(404);
    await t.rest.delete(`/api/v1/files/${doc.id}`, alice.key).expect(422); // still used by the second quote

    await t.orm.em
      .fork()
      .getConnection()
      .execute(`UPDATE quotes SET expires_at = now() - interval '1 day' WHERE id = ?`, [second.id]);
    const { data } = await t.gql(DeleteQuoteDocument, { id: second.id }, alice.key);
    expect(data!.deleteQuote).toBe(true);
    await t.rest.delete(`/api/v1/files/${doc.id}`, alice.key).expect(204);
  });

  it('refuses to discard a converted quote', async () => {
    const converted = (await quote({ ...base, file_ids: [file[1]] }).expect(201)).body.data;
    await t.orm.em
      .fork()
      .getConnection()
      .execute(`UPDATE quotes SET stored_status = 'converted' WHERE id = ?`, [converted.id]);
    const res = await t.rest.delete(`/api/v1/quotes/${converted.id}`, alice.key).expect(422);
    expect(res.body).toEqual({
      message: 'A converted quote cannot be deleted.',
      errors: { quote: ['A converted quote cannot be deleted.'] },
    });
    expect((await t.rest.get(`/api/v1/quotes/${converted.id}`, alice.key).expect(200)).body.data.status).toBe(
      'converted',
    );
  });
});

describe('GraphQL quotes', () => {
  it('creates the same quote as REST', async () => {
    const { data, errors } = await t.gql(
      CreateQuoteDocument,
      {
        input: {
          sourceLanguage: 'fr',
          targetLanguage: 'en',
          serviceType: 'CERTIFIED',
          fileIds: [file[251], file.png],
          unitCount: 1,
          addons: [{ code: 'hard_copy', quantity: 2 }],
          reference: 'gql',
          shippingAddress: {
            name: 'Cabinet Martin',
            line1: '12 rue de Rivoli',
            city: 'Paris',
            postalCode: '75004',
            country: 'FR',
          },
        },
      },
      alice.key,
    );
    expect(errors).toBeUndefined();
    expect(data!.createQuote).toMatchObject({
      status: 'PRICED',
      unitType: 'PAGE',
      unitCount: 3,
      subtotalCents: 2970,
      addons: [{ code: 'hard_copy', quantity: 2, unitPriceCents: 1495, totalCents: 2990 }],
      addonsTotalCents: 2990,
      totalCents: 5960,
      reference: 'gql',
    });
    const rest = await t.rest.get(`/api/v1/quotes/${data!.createQuote.id}`, alice.key).expect(200);
    expect(rest.body.data.total_cents).toBe(5960);
  });

  it('takes quantity 1 on a flat add-on and refuses any other, as REST does (D8)', async () => {
    const input = (quantity: number) => ({
      sourceLanguage: 'es',
      targetLanguage: 'en',
      serviceType: 'STANDARD' as const,
      fileIds: [file[250]],
      addons: [{ code: 'rush_2h', quantity }],
    });
    const one = await t.gql(CreateQuoteDocument, { input: input(1) }, alice.key);
    expect(one.errors).toBeUndefined();
    expect(one.data!.createQuote).toMatchObject({
      addons: [{ code: 'rush_2h', quantity: 1, totalCents: 3995 }],
      totalCents: 4245,
    });
    const two = await t.gql(CreateQuoteDocument, { input: input(2) }, alice.key);
    expect(two.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { 'addons.0.quantity': ['The addons.0.quantity field must be 1 for a flat add-on.'] },
    });
  });
});
