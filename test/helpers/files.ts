import { pollUntil } from './poll';
import type { TestApp } from './test-app';

/** Uploads through REST and returns the created file's JSON. */
export async function uploadFile(t: TestApp, key: string, content: Buffer, filename: string) {
  const res = await t.rest.upload('/api/v1/files', { file: content, filename }, key);
  if (res.status !== 201) throw new Error(`upload ${filename}: ${res.status} ${res.text}`);
  return res.body.data as Record<string, unknown> & { id: string };
}

/** Polls GET /files/{id} as a client would, until the background analysis has finished. */
export async function waitForAnalysis(t: TestApp, key: string, id: string, timeoutMs = 30_000) {
  const file = await pollUntil(
    async () => (await t.rest.get(`/api/v1/files/${id}`, key).expect(200)).body.data,
    (data) => data.analysis_status !== 'pending',
    { timeoutMs, failure: () => `file ${id} still pending` },
  );
  return file as Record<string, unknown>;
}
