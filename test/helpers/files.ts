import type { TestApp } from './test-app';

/** Uploads through REST and returns the created file's JSON. */
export async function uploadFile(t: TestApp, key: string, content: Buffer, filename: string) {
  const res = await t.rest.upload('/api/v1/files', { file: content, filename }, key);
  if (res.status !== 201) throw new Error(`upload ${filename}: ${res.status} ${res.text}`);
  return res.body.data as Record<string, unknown> & { id: string };
}

/** Polls GET /files/{id} as a client would, until the background analysis has finished. */
export async function waitForAnalysis(t: TestApp, key: string, id: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.rest.get(`/api/v1/files/${id}`, key).expect(200);
    if (res.body.data.analysis_status !== 'pending') return res.body.data as Record<string, unknown>;
    if (Date.now() > deadline) throw new Error(`file ${id} still pending after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
