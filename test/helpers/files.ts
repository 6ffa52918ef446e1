import { createHash, randomBytes } from 'node:crypto';
import { StoredFile } from '../../src/domain/files/file.entity';
import { createStorage } from '../../src/providers/storage/create-storage';
import { pollUntil } from './poll';
import type { TestApp } from './test-app';

/** Uploads through REST and returns the created file's JSON. */
export async function uploadFile(t: TestApp, key: string, content: Buffer, filename: string) {
  const res = await t.rest.upload('/api/v1/files', { file: content, filename }, key);
  if (res.status !== 201) throw new Error(`upload ${filename}: ${res.status} ${res.text}`);
  return (res.body as { data: Record<string, unknown> & { id: string } }).data;
}

/** Polls GET /files/{id} as a client would, until the background analysis has finished. */
export async function waitForAnalysis(t: TestApp, key: string, id: string, timeoutMs = 30_000) {
  return pollUntil(
    async () =>
      ((await t.rest.get(`/api/v1/files/${id}`, key).expect(200)).body as { data: Record<string, unknown> }).data,
    (data) => data.analysis_status !== 'pending',
    { timeoutMs, failure: () => `file ${id} still pending` },
  );
}

/** A document of exactly `bytes` bytes: a PDF as far as format detection goes, random after its header. */
export const largeDocument = (bytes: number): Buffer =>
  Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(bytes - 9)]);

/** The SHA-256 of what the storage holds for a file, read back through a provider of the app's configuration. */
export async function storedDigest(t: TestApp, fileId: string): Promise<string> {
  const file = await t.orm.em.fork().findOneOrFail(StoredFile, { id: fileId });
  const hash = createHash('sha256');
  for await (const chunk of (await createStorage(t.config.storage).read(file.storageKey)) as AsyncIterable<Buffer>)
    hash.update(chunk);
  return hash.digest('hex');
}

/**
 * An image a standard quote accepted before quotes refused them (D29): a counted DOCX whose stored format then says
 * PNG, so the engine meets an image, as it did for orders quoted earlier. For the paths that still hold such orders.
 */
export async function imageQuotedAsText(t: TestApp, key: string, content: Buffer, filename: string): Promise<string> {
  const { id } = await uploadFile(t, key, content, filename);
  await waitForAnalysis(t, key, id);
  await t.orm.em.fork().getConnection().execute(`UPDATE files SET mime_type = 'image/png' WHERE id = ?`, [id]);
  return id;
}
