import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account } from '../../src/domain/identity/account.entity';
import { FileType, StoredFile } from '../../src/domain/files/file.entity';
import { SignedUrls } from '../../src/domain/files/signed-urls';
import { newId } from '../../src/domain/shared/ids';
import { DeleteFileDocument, FileDocument, UploadFileDocument } from '../graphql/generated';
import { docx, pdf, zip } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { largeDocument, storedDigest, uploadFile, waitForAnalysis } from '../helpers/files';
import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
let sample: Buffer;
beforeAll(async () => {
  t = await startTestApp();
  const staff = await createStaffToken(t);
  [alice, bob] = [await createApprovedAccount(t, staff), await createApprovedAccount(t, staff)];
  sample = await docx({ paragraphs: ['A short sworn statement.'] });
});
afterAll(() => t.close());

const MB20 = 20 * 1024 * 1024;
const storedFiles = () => {
  const dir = (t.config.storage as { dir: string }).dir;
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => !String(f).match(/^[0-9a-f]{2}$/)) : [];
};
const countRows = async () =>
  (await t.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM files`))[0].n as number;
const expect422 = (
  res: { status: number; body: { errors: Record<string, string[]> } },
  errors: Record<string, string[]>,
) => {
  expect(res.status).toBe(422);
  expect(res.body.errors).toEqual(errors);
};

describe('large uploads (D5)', () => {
  it('stores exactly the bytes sent for an upload at the limit, on both doors', async () => {
    const content = largeDocument(MB20);
    const sent = createHash('sha256').update(content).digest('hex');
    const rest = await uploadFile(t, alice.key, content, 'large.pdf');
    const graphql = await t.gqlUpload(UploadFileDocument, {}, { content, filename: 'large.pdf' }, { token: alice.key });
    expect([rest.size_bytes, graphql.data?.uploadFile.sizeBytes]).toEqual([MB20, MB20]);
    expect([await storedDigest(t, rest.id), await storedDigest(t, graphql.data!.uploadFile.id)]).toEqual([sent, sent]);
  });
});

describe('POST /files', () => {
  it('stores a DOCX with the detected type, the client name and null counts', async () => {
    const res = await t.rest
      .upload('/api/v1/files', { file: sample, filename: 'statement.docx', fields: { type: 'source' } }, alice.key)
      .expect(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'source',
      name: 'statement.docx',
      mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      size_bytes: sample.length,
      page_count: null,
      document_pages: null,
      scanned_pages: null,
      word_count: null,
      analysis_status: 'pending',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      purged_at: null,
    });
    expect(res.body.data).not.toHaveProperty('download_url');
  });

  it('decides the format from the bytes, whatever the name says', async () => {
    const res = await t.rest
      .upload('/api/v1/files', { file: await pdf(['Hello']), filename: 'looks-like.docx' }, alice.key)
      .expect(201);
    expect(res.body.data.mime_type).toBe('application/pdf');
  });

  it('accepts exactly 20 MB and refuses one byte more, leaving nothing behind', async () => {
    const exact = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(MB20 - 9, 0x20)]);
    const ok = await t.rest.upload('/api/v1/files', { file: exact, filename: 'exact.pdf' }, alice.key).expect(201);
    expect(ok.body.data.size_bytes).toBe(MB20);
    // Its bytes as received are analysed, then removed.
    await waitForAnalysis(t, alice.key, ok.body.data.id);

    const [rowsBefore, filesBefore] = [await countRows(), storedFiles().length];
    const tooBig = await t.rest.upload(
      '/api/v1/files',
      { file: Buffer.concat([exact, Buffer.from(' ')]), filename: 'big.pdf' },
      alice.key,
    );
    expect422(tooBig, { file: ['The file must not be greater than 20 MB.'] });
    expect(tooBig.body.message).toBe('The file must not be greater than 20 MB.');
    expect(await countRows()).toBe(rowsBefore);
    expect(storedFiles().length).toBe(filesBefore);
    expect(readdirSync(t.services.files.tempDir).filter((f) => f.startsWith('ltk-upload-'))).toEqual([]);
  });

  it.each([
    ['an empty file', Buffer.alloc(0), 'empty.pdf', 'The file must not be empty.'],
    [
      'HTML named .pdf',
      Buffer.from('<!doctype html><html><body>hi</body></html>'),
      'fake.pdf',
      'The file must be a PDF, DOCX, JPEG or PNG document.',
    ],
    [
      'a renamed executable',
      Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(200)]),
      'invoice.pdf',
      'The file must be a PDF, DOCX, JPEG or PNG document.',
    ],
    [
      'a plain text file',
      Buffer.from('just text'),
      'notes.docx',
      'The file must be a PDF, DOCX, JPEG or PNG document.',
    ],
    ['a GIF', Buffer.from('GIF89a\x01\x00\x01\x00'), 'a.png', 'The file must be a PDF, DOCX, JPEG or PNG document.'],
  ])('refuses %s', async (_label, content, filename, message) => {
    const before = await countRows();
    expect422(await t.rest.upload('/api/v1/files', { file: content, filename }, alice.key), { file: [message] });
    expect(await countRows()).toBe(before);
  });

  it('refuses a zip that is not a DOCX', async () => {
    const notDocx = await zip({ 'readme.txt': 'hello', 'word/other.xml': '<x/>' });
    expect422(await t.rest.upload('/api/v1/files', { file: notDocx, filename: 'x.docx' }, alice.key), {
      file: ['The file must be a PDF, DOCX, JPEG or PNG document.'],
    });
  });

  it('refuses a request without a file part (422), and a JSON body (415, D25)', async () => {
    expect422(await t.rest.upload('/api/v1/files', { fields: { type: 'source' } }, alice.key), {
      file: ['The file field is required.'],
    });
    const json = await t.rest.post('/api/v1/files', { file: 'aGVsbG8=' }, alice.key).expect(415);
    expect(json.body).toEqual({ message: 'Unsupported media type: send multipart/form-data.' });
  });

  it('refuses any type but source (D5), together with other errors', async () => {
    expect422(
      await t.rest.upload(
        '/api/v1/files',
        { file: sample, filename: 'x.docx', fields: { type: 'translation' } },
        alice.key,
      ),
      {
        type: ['Only source files can be uploaded.'],
      },
    );
    expect422(await t.rest.upload('/api/v1/files', { fields: { type: 'certificate' } }, alice.key), {
      type: ['Only source files can be uploaded.'],
      file: ['The file field is required.'],
    });
  });

  it('answers a broken multipart body 400', async () => {
    const res = await t.rest
      .raw()
      .post('/api/v1/files')
      .set('Authorization', `Bearer ${alice.key}`)
      .set('Content-Type', 'multipart/form-data')
      .send('--x\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Malformed multipart body.' });
  });

  it.each([
    ['../../etc/passwd.pdf', 'passwd.pdf'],
    ['C:\\Users\\clerk\\Desktop\\evidence.pdf', 'evidence.pdf'],
    ['/var/www/../../x.pdf', 'x.pdf'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['..', 'document'],
    ['déclaration sous serment — 宣誓.pdf', 'déclaration sous serment — 宣誓.pdf'],
    [`${'a'.repeat(300)}.pdf`, `${'a'.repeat(251)}.pdf`],
  ])('cleans the file name %j', async (given, kept) => {
    const res = await t.rest
      .upload('/api/v1/files', { file: await pdf(['x']), filename: given }, alice.key)
      .expect(201);
    expect(res.body.data.name).toBe(kept);
  });

  it('strips control characters that arrive percent-encoded in filename* (RFC 5987)', async () => {
    const content = await pdf(['x']);
    const body = Buffer.concat([
      Buffer.from(
        `--b\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''tab%09bell%07new%0Aline%00.pdf\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      content,
      Buffer.from('\r\n--b--\r\n'),
    ]);
    const res = await t.rest
      .raw()
      .post('/api/v1/files')
      .set('Authorization', `Bearer ${alice.key}`)
      .set('Content-Type', 'multipart/form-data; boundary=b')
      .send(body)
      .expect(201);
    expect(res.body.data.name).toBe('tabbellnewline.pdf');
  });

  it('needs an approved key', async () => {
    await t.rest.upload('/api/v1/files', { file: sample, filename: 'x.docx' }).expect(401);
  });
});

describe("ownership (contract section 5: another account's resource is 404)", () => {
  it("hides one account's file from another on every route and both doors", async () => {
    const file = await uploadFile(t, alice.key, sample, 'mine.docx');
    await t.rest.get(`/api/v1/files/${file.id}`, alice.key).expect(200);
    for (const probe of [
      t.rest.get(`/api/v1/files/${file.id}`, bob.key),
      t.rest.delete(`/api/v1/files/${file.id}`, bob.key),
    ]) {
      expect((await probe.expect(404)).body).toEqual({ message: 'Not found.' });
    }
    expect((await t.gql(FileDocument, { id: file.id }, bob.key)).errors![0].extensions!.code).toBe('NOT_FOUND');
    expect((await t.gql(DeleteFileDocument, { id: file.id }, bob.key)).errors![0].extensions!.code).toBe('NOT_FOUND');
    await t.rest.get(`/api/v1/files/${file.id}`, alice.key).expect(200);
  });

  it('answers unknown and malformed ids with the same 404', async () => {
    for (const id of [newId(), 'not-an-id', '1%27%20OR%201=1']) {
      expect((await t.rest.get(`/api/v1/files/${id}`, alice.key).expect(404)).body).toEqual({ message: 'Not found.' });
    }
  });
});

describe('DELETE /files/{id}', () => {
  it('deletes an unattached file and its bytes: 204, then 404', async () => {
    const file = await uploadFile(t, alice.key, sample, 'gone.docx');
    expect(storedFiles().some((f) => String(f).endsWith(file.id))).toBe(true);
    const res = await t.rest.delete(`/api/v1/files/${file.id}`, alice.key).expect(204);
    expect(res.text).toBe('');
    await t.rest.get(`/api/v1/files/${file.id}`, alice.key).expect(404);
    expect(storedFiles().some((f) => String(f).endsWith(file.id))).toBe(false);
  });

  it('refuses to delete a file attached to a quote or an order, on both doors', async () => {
    const file = await uploadFile(t, alice.key, sample, 'attached.docx');
    await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [file.id] },
        alice.key,
      )
      .expect(201);
    expect422(await t.rest.delete(`/api/v1/files/${file.id}`, alice.key), {
      file: ['The file is attached to a quote or order and cannot be deleted.'],
    });
    const viaGraphQL = await t.gql(DeleteFileDocument, { id: file.id }, alice.key);
    expect(viaGraphQL.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { file: ['The file is attached to a quote or order and cannot be deleted.'] },
    });
    await t.rest.get(`/api/v1/files/${file.id}`, alice.key).expect(200);
    expect(storedFiles().some((f) => String(f).endsWith(file.id))).toBe(true);
  });
});

describe('signed downloads (D5)', () => {
  async function translationFor(account: TestAccount, content: Buffer, name: string) {
    const em = t.orm.em.fork();
    const path = join(mkdtempSync(join(tmpdir(), 'ltk-produced-')), 'out');
    writeFileSync(path, content);
    // A produced file of no order, stored through the service the pipeline uses; its link as the client would get it.
    const file = await em.transactional(async (tx) =>
      t.services.files.storeProduced(tx, {
        account: await tx.findOneOrFail(Account, { id: account.id }),
        type: FileType.TRANSLATION,
        name,
        path,
      }),
    );
    return { id: file.id, download_url: t.services.files.downloadUrl(file)! };
  }
  const relative = (url: string) => url.replace('http://127.0.0.1:3000', '');

  it('gives translations a 5-minute link that works without a key and streams the bytes as an attachment', async () => {
    const content = await docx({ paragraphs: ['Traducción certificada'] });
    const file = await translationFor(alice, content, 'statement.es.docx');
    expect(file.download_url).toMatch(
      new RegExp(
        `^http://127\\.0\\.0\\.1:3000/api/v1/files/${file.id}/download\\?expires=\\d+&signature=[0-9a-f]{64}$`,
      ),
    );
    const expires = Number(new URL(file.download_url).searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(290_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(300_000);

    const res = await t.rest
      .get(relative(file.download_url))
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c)).on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body as Buffer, content)).toBe(0);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="statement.es.docx"; filename*=UTF-8''statement.es.docx`,
    );
  });

  it('refuses an expired link with 403 saying so, and altered links with 403 Invalid signature', async () => {
    const file = await translationFor(alice, sample, 'x.docx');
    const url = new URL(file.download_url);
    const [expires, signature] = [url.searchParams.get('expires')!, url.searchParams.get('signature')!];
    const signer = new SignedUrls('http://127.0.0.1:3000', t.config.appKey, []);
    const expired = signer.downloadUrl(file.id, Date.now() - 6 * 60 * 1000);
    const other = await translationFor(alice, sample, 'y.docx');
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    expect((await t.rest.get(relative(expired)).expect(403)).body).toEqual({
      message: 'This link has expired: request the file again for a fresh link.',
    });
    // Past its time and altered (or signed by no key of ours): no better than any forged link.
    const forgedExpired = new SignedUrls('http://127.0.0.1:3000', 'not-our-key-0123456789abcdef', []).downloadUrl(
      file.id,
      Date.now() - 6 * 60 * 1000,
    );
    for (const bad of [
      relative(forgedExpired),
      `${url.pathname}?expires=${Number(expires) + 60}&signature=${signature}`,
      `${url.pathname}?expires=${expires}&signature=${flipped}`,
      `${url.pathname}?expires=${expires}&scope=staff&signature=${signature}`,
      `/api/v1/files/${other.id}/download?expires=${expires}&signature=${signature}`,
      `${url.pathname}?expires=${expires}`,
      url.pathname,
      `/api/v1/files/not-an-id/download?expires=${expires}&signature=${signature}`,
    ]) {
      const res = await t.rest.get(bad).expect(403);
      expect(res.body).toEqual({ message: 'Invalid signature.' });
    }
  });

  it('never serves source files on a client link, even with a valid signature; only a staff link opens them (D18)', async () => {
    const source = await uploadFile(t, alice.key, sample, 'source.docx');
    const signer = new SignedUrls('http://127.0.0.1:3000', t.config.appKey, []);
    await t.rest.get(relative(signer.downloadUrl(source.id))).expect(404);
    await t.rest.get(relative(signer.downloadUrl(source.id, Date.now(), true))).expect(200);
  });

  it('keeps links signed with the previous key valid during a rotation (APP_KEY_PREVIOUS)', async () => {
    const file = await translationFor(alice, sample, 'rotated.docx');
    const link = relative(file.download_url);
    const rotated = await startTestApp({
      databaseOf: t,
      config: {
        appKey: 'a-brand-new-key-0123456789abcdef0123456789',
        appKeyPrevious: [t.config.appKey],
        storage: t.config.storage,
      },
    });
    const forgotten = await startTestApp({
      databaseOf: t,
      config: { appKey: 'a-brand-new-key-0123456789abcdef0123456789', storage: t.config.storage },
    });
    try {
      await rotated.rest.get(link).expect(200);
      await forgotten.rest.get(link).expect(403);
      const fresh = rotated.services.files.downloadUrl(
        await rotated.orm.em.fork().findOneOrFail(StoredFile, { id: file.id }),
      )!;
      await forgotten.rest.get(relative(fresh)).expect(200);
    } finally {
      await rotated.close();
      await forgotten.close();
    }
  });
});

describe('GraphQL files', () => {
  it('uploads with Apollo-Require-Preflight and answers like REST', async () => {
    const { data, errors } = await t.gqlUpload(
      UploadFileDocument,
      {},
      { content: sample, filename: '../gql — 宣誓.docx' },
      { token: alice.key },
    );
    expect(errors).toBeUndefined();
    expect(data!.uploadFile).toMatchObject({
      type: 'SOURCE',
      name: 'gql — 宣誓.docx',
      sizeBytes: sample.length,
      pageCount: null,
      analysisStatus: 'PENDING',
      downloadUrl: null,
    });
    const rest = await t.rest.get(`/api/v1/files/${data!.uploadFile.id}`, alice.key).expect(200);
    expect(rest.body.data.name).toBe('gql — 宣誓.docx');
    const fetched = await t.gql(FileDocument, { id: data!.uploadFile.id }, alice.key);
    expect(fetched.data!.file!.id).toBe(data!.uploadFile.id);
  });

  it('refuses a multipart upload without the preflight header (CSRF prevention), storing nothing', async () => {
    const before = await countRows();
    const res = await t.gqlUpload(
      UploadFileDocument,
      {},
      { content: sample, filename: 'csrf.docx' },
      { token: alice.key, preflight: false },
    );
    expect(res.status).toBe(400);
    expect(await countRows()).toBe(before);
  });

  it('applies the same rules as REST: type, format, size', async () => {
    const translation = await t.gqlUpload(
      UploadFileDocument,
      { type: 'TRANSLATION' },
      { content: sample, filename: 'x.docx' },
      { token: alice.key },
    );
    expect(translation.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { type: ['Only source files can be uploaded.'] },
    });
    const html = await t.gqlUpload(
      UploadFileDocument,
      {},
      { content: Buffer.from('<html></html>'), filename: 'x.pdf' },
      { token: alice.key },
    );
    expect(html.errors![0].extensions!.errors).toEqual({
      file: ['The file must be a PDF, DOCX, JPEG or PNG document.'],
    });
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(MB20, 0x20)]);
    const before = await countRows();
    const tooBig = await t.gqlUpload(
      UploadFileDocument,
      {},
      { content: big, filename: 'big.pdf' },
      { token: alice.key },
    );
    expect(tooBig.errors![0].extensions!.errors).toEqual({ file: ['The file must not be greater than 20 MB.'] });
    expect(await countRows()).toBe(before);
    const anonymous = await t.gqlUpload(UploadFileDocument, {}, { content: sample, filename: 'x.docx' });
    expect(anonymous.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
  });

  it('deletes through deleteFile', async () => {
    const file = await uploadFile(t, alice.key, sample, 'bye.docx');
    const { data } = await t.gql(DeleteFileDocument, { id: file.id }, alice.key);
    expect(data!.deleteFile).toBe(true);
    await t.rest.get(`/api/v1/files/${file.id}`, alice.key).expect(404);
  });
});
