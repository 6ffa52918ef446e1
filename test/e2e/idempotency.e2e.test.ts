import { createHash } from 'node:crypto';
import { Account } from '../../src/domain/identity/account.entity';
import { IdempotencyKey } from '../../src/domain/idempotency/idempotency-key.entity';
import { docx, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
let fileId: string;
beforeAll(async () => {
  t = await startTestApp();
  const staff = await createStaffToken(t);
  [alice, bob] = [await createApprovedAccount(t, staff), await createApprovedAccount(t, staff)];
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(20)] }), 'a.docx')).id;
});
afterAll(() => t.close());

const body = () => ({ source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [fileId] });
const post = (path: string, payload: object | undefined, key: string, account = alice) =>
  t.rest.post(path, payload, account.key).set('Idempotency-Key', key);
const count = async (table: string) =>
  (await t.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

describe('Idempotency-Key (D9)', () => {
  it('replays the first answer for the same request, creating nothing more', async () => {
    const before = await count('quotes');
    const first = await post('/api/v1/quotes', body(), 'quote-1').expect(201);
    const second = await post('/api/v1/quotes', body(), 'quote-1').expect(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('quotes')).toBe(before + 1);
  });

  it('takes the same body with its fields in another order as the same request', async () => {
    const first = await post(
      '/api/v1/quotes',
      { ...body(), reference: 'R-1', shipping_address: null },
      'quote-order',
    ).expect(201);
    const reordered = {
      shipping_address: null,
      reference: 'R-1',
      file_ids: [fileId],
      service_type: 'standard',
      target_language: 'en',
      source_language: 'es',
    };
    const again = await post('/api/v1/quotes', reordered, 'quote-order').expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    // Arrays keep their order: that is part of what was asked.
    const otherList = await post(
      '/api/v1/quotes',
      { ...body(), reference: 'R-1', shipping_address: null, file_ids: [fileId, fileId] },
      'quote-order',
    ).expect(422);
    expect(Object.keys(otherList.body.errors)).toEqual(['idempotency_key']);
  });

  it('still replays a key recorded before bodies were compared with their keys in order', async () => {
    // As the previous release stored it: the SHA-256 of method, path and the body's JSON as sent.
    const sent = { target_language: 'en', source_language: 'es', service_type: 'standard', file_ids: [fileId] };
    const earlier = createHash('sha256')
      .update(`POST /api/v1/quotes\n${JSON.stringify(sent)}`)
      .digest('hex');
    const answered = (await t.rest.post('/api/v1/quotes', sent, alice.key).expect(201)).body;
    const em = t.orm.em.fork();
    const account = await em.findOneOrFail(Account, { email: alice.email });
    await em.insert(
      Object.assign(new IdempotencyKey(), {
        account,
        key: 'before-upgrade',
        fingerprint: earlier,
        statusCode: 201,
        responseBody: answered,
      }),
    );
    const before = await count('quotes');
    const replayed = await post('/api/v1/quotes', sent, 'before-upgrade').expect(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(answered);
    expect(await count('quotes')).toBe(before);
  });

  it('refuses the same key with a different request', async () => {
    await post('/api/v1/quotes', body(), 'quote-2').expect(201);
    const res = await post('/api/v1/quotes', { ...body(), reference: 'changed' }, 'quote-2').expect(422);
    expect(res.body.errors).toEqual({
      idempotency_key: ['This Idempotency-Key was already used with a different request.'],
    });
    const otherPath = await post(
      `/api/v1/quotes/${(await post('/api/v1/quotes', body(), 'quote-3').expect(201)).body.data.id}/convert`,
      undefined,
      'quote-3',
    ).expect(422);
    expect(Object.keys(otherPath.body.errors)).toEqual(['idempotency_key']);
  });

  it('keeps keys per account', async () => {
    const bobFile = (await uploadFile(t, bob.key, await docx({ paragraphs: ['x'] }), 'b.docx')).id;
    await post('/api/v1/quotes', body(), 'shared-key').expect(201);
    const bobs = await post('/api/v1/quotes', { ...body(), file_ids: [bobFile] }, 'shared-key', bob).expect(201);
    expect(bobs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays a refusal as well, and a retried convert returns the same order instead of 422', async () => {
    const bad = await post('/api/v1/quotes', { ...body(), service_type: 'gold' }, 'bad-1').expect(422);
    const again = await post('/api/v1/quotes', { ...body(), service_type: 'gold' }, 'bad-1').expect(422);
    expect(again.body).toEqual(bad.body);

    const quote = (await t.rest.post('/api/v1/quotes', body(), alice.key).expect(201)).body.data;
    const converted = await post(`/api/v1/quotes/${quote.id}/convert`, undefined, 'convert-1').expect(201);
    const retried = await post(`/api/v1/quotes/${quote.id}/convert`, undefined, 'convert-1').expect(201);
    expect(retried.body).toEqual(converted.body);
    await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(422);
  });

  it('replays an upload without storing the file twice', async () => {
    const content = await docx({ paragraphs: ['same upload'] });
    const before = await count('files');
    const first = await t.rest
      .upload('/api/v1/files', { file: content, filename: 'u.docx' }, alice.key)
      .set('Idempotency-Key', 'upload-1')
      .expect(201);
    const second = await t.rest
      .upload('/api/v1/files', { file: content, filename: 'u.docx' }, alice.key)
      .set('Idempotency-Key', 'upload-1')
      .expect(201);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(await count('files')).toBe(before + 1);
  });

  it('refuses the same key on an upload whose file, file name or fields differ, even at the same size', async () => {
    const content = await docx({ paragraphs: ['first upload'] });
    const sameSize = Buffer.from(content);
    sameSize[sameSize.length - 30] ^= 1; // one byte changed: same length, other content
    const before = await count('files');
    const upload = (part: Parameters<TestApp['rest']['upload']>[1]) =>
      t.rest.upload('/api/v1/files', part, alice.key).set('Idempotency-Key', 'upload-2');
    await upload({ file: content, filename: 'u.docx' }).expect(201);
    for (const other of [
      { file: sameSize, filename: 'u.docx' },
      { file: content, filename: 'v.docx' },
      { file: content, filename: 'u.docx', fields: { type: 'source' } },
    ]) {
      const res = await upload(other).expect(422);
      expect(res.body.errors).toEqual({
        idempotency_key: ['This Idempotency-Key was already used with a different request.'],
      });
    }
    expect((await upload({ file: content, filename: 'u.docx' }).expect(201)).headers['idempotent-replayed']).toBe(
      'true',
    );
    expect(await count('files')).toBe(before + 1);
  });

  it('frees the key of an upload answered without reading its body, so the retry runs', async () => {
    const malformed = await t.rest
      .raw()
      .post('/api/v1/files')
      .set('Authorization', `Bearer ${alice.key}`)
      .set('Idempotency-Key', 'upload-3')
      .set('Content-Type', 'multipart/form-data')
      .send('no boundary here');
    expect(malformed.status).toBe(400);
    const retried = await t.rest
      .upload('/api/v1/files', { file: await docx({ paragraphs: ['retry'] }), filename: 'r.docx' }, alice.key)
      .set('Idempotency-Key', 'upload-3')
      .expect(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('frees the key of a first request that died unanswered (its process killed) after 15 minutes', async () => {
    const claim = (key: string, minutesAgo: number) =>
      t.orm.em
        .fork()
        .getConnection()
        .execute(
          `INSERT INTO idempotency_keys (id, account_id, key, fingerprint, created_at) VALUES (gen_random_uuid(), ?, ?, NULL, now() - make_interval(mins => ?))`,
          [alice.id, key, minutesAgo],
        );
    await claim('died-1', 16);
    const fresh = await post('/api/v1/quotes', body(), 'died-1').expect(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    await claim('running-1', 1);
    await post('/api/v1/quotes', body(), 'running-1').expect(409);
  });

  it('forgets keys after 24 hours', async () => {
    const first = await post('/api/v1/quotes', body(), 'old-key').expect(201);
    await t.orm.em
      .fork()
      .getConnection()
      .execute(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old-key'`);
    const fresh = await post('/api/v1/quotes', body(), 'old-key').expect(201);
    expect(fresh.body.data.id).not.toBe(first.body.data.id);
  });

  it('refuses an over-long key', async () => {
    const res = await post('/api/v1/quotes', body(), 'k'.repeat(256)).expect(422);
    expect(res.body.errors).toEqual({ idempotency_key: ['The Idempotency-Key header must be 1 to 255 characters.'] });
  });

  it('lets exactly one of several concurrent requests with one key run', async () => {
    const before = await count('quotes');
    const results = await Promise.all(Array.from({ length: 5 }, () => post('/api/v1/quotes', body(), 'race-1')));
    expect(results.every((r) => [201, 409].includes(r.status))).toBe(true);
    expect(results.filter((r) => r.status === 201 && !r.headers['idempotent-replayed']).length).toBe(1);
    expect(await count('quotes')).toBe(before + 1);
  });
});
