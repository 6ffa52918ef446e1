import { createHash } from 'node:crypto';
import { ClientRequest } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { FileStorage } from '../../src/providers/storage/file-storage';
import { liveProcessIds } from '../../src/db/live-processes';
import { Account } from '../../src/domain/identity/account.entity';
import { FileType } from '../../src/domain/files/file.entity';
import { docx, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { largeDocument, storedDigest, uploadFile, waitForAnalysis } from '../helpers/files';
import { openFiles } from '../helpers/open-files';
import { startS3StandIn, type S3StandIn } from '../helpers/s3-stand-in';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** The S3 storage driver against a real S3-compatible server on loopback (s3rver). */
let s3: S3StandIn;
let storage: S3StandIn['storage'];
let t: TestApp;
let account: TestAccount;

beforeAll(async () => {
  s3 = await startS3StandIn('ltk-files');
  storage = s3.storage;
  t = await startTestApp({ config: { storage } });
  account = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(async () => {
  await t.close();
  await s3.close().catch(() => undefined);
});

const objectExists = (key: string) => s3.objectExists(key);

describe('S3-compatible storage', () => {
  it("sweeps objects no file row claims, listing the bucket, and keeps every file's (D25)", async () => {
    const file = await uploadFile(t, account.key, await docx({ paragraphs: [words(20)] }), 'kept.docx');
    await s3.client.send(
      new PutObjectCommand({ Bucket: storage.bucket, Key: 'e0000000-dead', Body: 'left by a killed process' }),
    );
    const em = t.orm.em.fork();
    await em
      .getConnection()
      .execute(
        `insert into storage_intents (storage_key, process_id, created_at) values ('e0000000-dead', 2147483000, now())`,
      );
    expect(await t.services.files.sweepStorage(em, () => liveProcessIds(em))).toEqual({
      removed: ['e0000000-dead'],
      clearedIntents: 1,
    });
    expect([await objectExists('e0000000-dead'), await objectExists(file.id)]).toEqual([false, true]);
  });

  it('stores exactly the bytes sent for an upload at the limit, sending them through one reused buffer', async () => {
    // What the SDK writes of each PUT's body: the buffers behind its chunks (a fresh one per chunk is garbage that
    // outlives the upload; README, bench:upload).
    const sent = new Set<ArrayBufferLike>();
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the spy below calls it with the request as `this`
    const write = ClientRequest.prototype.write;
    jest.spyOn(ClientRequest.prototype, 'write').mockImplementation(function (
      this: ClientRequest,
      ...args: Parameters<ClientRequest['write']>
    ) {
      if (this.method === 'PUT' && Buffer.isBuffer(args[0])) sent.add(args[0].buffer);
      return write.apply(this, args);
    });
    const content = largeDocument(t.config.uploadMaxBytes);
    const file = await uploadFile(t, account.key, content, 'large.pdf');
    jest.restoreAllMocks();
    expect(await storedDigest(t, file.id)).toBe(createHash('sha256').update(content).digest('hex'));
    expect(sent.size).toBe(1);
  });

  it('stores the upload in the bucket and analyses it from there', async () => {
    const file = await uploadFile(t, account.key, await docx({ paragraphs: [words(260)] }), 'in-s3.docx');
    expect(await objectExists(file.id)).toBe(true);
    expect(await waitForAnalysis(t, account.key, file.id)).toMatchObject({ word_count: 260, page_count: 2 });
  });

  it('analyses an upload from the bytes it received, never fetching back what it just stored', async () => {
    const downloads: string[] = [];
    const app = await startTestApp({
      databaseOf: t,
      config: { storage },
      workers: false,
      adjust: (services) => {
        // The storage is the files service's own: spied on where the service reaches it.
        const { storage: spied } = (services.files as unknown as { deps: { storage: FileStorage } }).deps;
        const download = spied.download.bind(spied);
        spied.download = (key, path) => (downloads.push(key), download(key, path));
      },
    });
    try {
      const file = await uploadFile(app, account.key, await docx({ paragraphs: [words(300)] }), 'received.docx');
      expect(await waitForAnalysis(app, account.key, file.id)).toMatchObject({ word_count: 300 });
      expect(downloads).not.toContain(file.id);
    } finally {
      await app.close();
    }
  });

  it('streams a signed download from the bucket', async () => {
    const content = await docx({ paragraphs: ['Translated from S3'] });
    const path = join(mkdtempSync(join(tmpdir(), 'ltk-s3-out-')), 'out.docx');
    writeFileSync(path, content);
    const em = t.orm.em.fork();
    const file = await em.transactional(async (tx) =>
      t.services.files.storeProduced(tx, {
        account: await tx.findOneOrFail(Account, { id: account.id }),
        type: FileType.TRANSLATION,
        name: 'out.docx',
        path,
      }),
    );
    const url = t.services.files.downloadUrl(file)!.replace(t.config.appUrl, '');
    const res = await t.rest
      .get(url)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c)).on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body as Buffer, content)).toBe(0);
  });

  it('deletes the object with the file', async () => {
    const file = await uploadFile(t, account.key, await docx({ paragraphs: ['bye'] }), 'bye.docx');
    await t.rest.delete(`/api/v1/files/${file.id}`, account.key).expect(204);
    expect(await objectExists(file.id)).toBe(false);
  });

  it('answers 503 with Retry-After and stores nothing when the store is down (D2)', async () => {
    const rows = async () =>
      (await t.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM files`))[0].n as number;
    const before = await rows();
    await s3.close();
    const res = await t.rest.upload(
      '/api/v1/files',
      { file: await docx({ paragraphs: ['down'] }), filename: 'down.docx' },
      account.key,
    );
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: 'File storage unavailable.' });
    expect(res.headers['retry-after']).toBe('30');
    expect(await rows()).toBe(before);
    // No attempt left its temporary file open: a body is opened when it is sent, and these never were.
    expect(openFiles().filter((path) => path.startsWith(t.services.files.tempDir))).toEqual([]);
  });
});
