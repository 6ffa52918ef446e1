import { docx, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** Every 201 says where the new resource is (RFC 9110), absolute from the configured base, and a replay says the same. */
let t: TestApp;
let alice: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  alice = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(() => t.close());

const BASE = 'http://127.0.0.1:3000/api/v1';

/** The Location, checked to be absolute from APP_URL and to answer the created resource itself. */
async function followed(location: string | undefined, collection: string, id: string) {
  expect(location).toBe(`${BASE}/${collection}/${id}`);
  const read = await t.rest.get(location!.slice('http://127.0.0.1:3000'.length), alice.key).expect(200);
  expect(read.body.data.id).toBe(id);
}

describe('Location on 201', () => {
  it('points at the upload, the quote, the converted order and the booking, and a replay sends the same one', async () => {
    const content = await docx({ paragraphs: [words(300)] });
    const upload = () =>
      t.rest
        .upload('/api/v1/files', { file: content, filename: 'affidavit_es.docx' }, alice.key)
        .set('Idempotency-Key', 'loc-file');
    const file = await upload().expect(201);
    await followed(file.headers.location, 'files', file.body.data.id);
    const fileAgain = await upload().expect(201);
    expect([fileAgain.headers['idempotent-replayed'], fileAgain.headers.location]).toEqual([
      'true',
      file.headers.location,
    ]);

    const quoteBody = {
      source_language: 'es',
      target_language: 'en',
      service_type: 'certified',
      file_ids: [file.body.data.id],
    };
    const quote = await t.rest
      .post('/api/v1/quotes', quoteBody, alice.key)
      .set('Idempotency-Key', 'loc-quote')
      .expect(201);
    await followed(quote.headers.location, 'quotes', quote.body.data.id);
    const quoteAgain = await t.rest
      .post('/api/v1/quotes', quoteBody, alice.key)
      .set('Idempotency-Key', 'loc-quote')
      .expect(201);
    expect([quoteAgain.headers['idempotent-replayed'], quoteAgain.headers.location]).toEqual([
      'true',
      quote.headers.location,
    ]);

    const convert = () =>
      t.rest
        .post(`/api/v1/quotes/${quote.body.data.id}/convert`, undefined, alice.key)
        .set('Idempotency-Key', 'loc-convert');
    const order = await convert().expect(201);
    await followed(order.headers.location, 'orders', order.body.data.id);
    const orderAgain = await convert().expect(201);
    expect([orderAgain.headers['idempotent-replayed'], orderAgain.headers.location]).toEqual([
      'true',
      order.headers.location,
    ]);

    const bookingBody = {
      source_language: 'es',
      target_language: 'en',
      mode: 'video_remote',
      scheduled_at: '2030-12-01T09:30:00-05:00',
      duration_hours: 1.5,
    };
    const booking = await t.rest
      .post('/api/v1/interpretation-bookings', bookingBody, alice.key)
      .set('Idempotency-Key', 'loc-booking')
      .expect(201);
    await followed(booking.headers.location, 'interpretation-bookings', booking.body.data.id);
    const bookingAgain = await t.rest
      .post('/api/v1/interpretation-bookings', bookingBody, alice.key)
      .set('Idempotency-Key', 'loc-booking')
      .expect(201);
    expect([bookingAgain.headers['idempotent-replayed'], bookingAgain.headers.location]).toEqual([
      'true',
      booking.headers.location,
    ]);
  });

  it('sends none on answers that create nothing, replays included', async () => {
    const bad = () =>
      t.rest.post('/api/v1/quotes', { source_language: 'es' }, alice.key).set('Idempotency-Key', 'loc-bad');
    expect((await bad().expect(422)).headers.location).toBeUndefined();
    expect((await bad().expect(422)).headers.location).toBeUndefined();
  });
});

describe('GET /openapi.json', () => {
  it('refuses a body it cannot read as documented (a GET needs none)', async () => {
    await t.rest
      .raw()
      .get('/api/v1/openapi.json')
      .set('Content-Type', 'application/json')
      .send('{"not json')
      .expect(400);
  });
});
