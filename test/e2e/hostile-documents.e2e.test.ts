import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { samplePeakMemory, serviceMemoryBytes } from '../../bench/process-memory';
import { docx, emptyParagraphsDocx, mediaBombDocx } from '../helpers/documents';
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { assertBuilt, cleanEnv, MAIN, startProcess, type RunningProcess } from '../helpers/service-process';
import { startTestApp } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

/**
 * D25 through a real service process: client documents that once froze the service (a quadratic pattern over
 * 200,000 empty paragraphs) or took it to gigabytes (media parts inflating to 1,000 MB each) are translated, in
 * a paid 1-cent order, by the document sandbox's child. The order ends on hold with its reason, another
 * account's polls keep answering within a second throughout, and the service with its children stays within
 * its baseline plus ANALYSIS_MAX_MEMORY_MB.
 */
const CEILING_MB = 512;

let database: TestDatabase;
let service: RunningProcess;
let base: string;
let attacker: string;
let neighbour: { key: string; orderId: string };
beforeAll(async () => {
  assertBuilt();
  database = await createTestDatabase();
  const env = cleanEnv({
    DATABASE_URL: database.url,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-hostile-')),
    PORT: '0',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '100000',
    ANALYSIS_MAX_MEMORY_MB: String(CEILING_MB),
    JOBS_POLLING_INTERVAL_SECONDS: '0.5',
  });
  service = startProcess(MAIN, [], env);
  base = `http://127.0.0.1:${JSON.parse(await service.waitFor(/listening on port/, 60_000)).port}`;
  const setup = await startTestApp({ databaseOf: { database }, workers: false });
  try {
    const staff = await createStaffToken(setup);
    attacker = (await createApprovedAccount(setup, staff)).key;
    neighbour = { key: (await createApprovedAccount(setup, staff)).key, orderId: '' };
  } finally {
    await setup.close();
  }
  neighbour.orderId = await paidOrder(neighbour.key, await docx({ paragraphs: ['Poder notarial.'] }));
}, 120_000);
afterAll(async () => {
  if (service?.child.exitCode === null) service.child.kill('SIGTERM');
  await service?.exited;
  await database?.drop();
});

async function call(
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; data: Record<string, unknown> & { id: string } }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as { data: Record<string, unknown> & { id: string } };
  return { status: res.status, data: json.data };
}

/**
 * Uploads, waits for the analysis, then quotes (certified, one unit), converts and pays: the order id. A document
 * the analysis could not count is now translated by a person (D30) and a standard quote refuses it (D29), so it is
 * recorded as counted first, as documents quoted before those rules were: the engine, in its sandbox, is then what
 * meets it.
 */
async function paidOrder(key: string, content: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([content]), 'document.docx');
  const uploaded = await fetch(`${base}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const fileId = ((await uploaded.json()) as { data: { id: string } }).data.id;
  let file = (await call('GET', `/api/v1/files/${fileId}`, key)).data;
  while (file.analysis_status === 'pending') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    file = (await call('GET', `/api/v1/files/${fileId}`, key)).data;
  }
  if (file.analysis_status === 'uncountable') await countedAsText(fileId);
  const quote = await call('POST', '/api/v1/quotes', key, {
    source_language: 'es',
    target_language: 'en',
    service_type: 'certified',
    file_ids: [fileId],
  });
  expect(quote.status).toBe(201);
  const converted = await fetch(`${base}/api/v1/quotes/${quote.data.id}/convert`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
  });
  const { data, provider_approval_url } = (await converted.json()) as {
    data: { id: string };
    provider_approval_url: string;
  };
  const paid = await fetch(`${provider_approval_url.replace(/^https?:\/\/[^/]+/, base)}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  expect(paid.status).toBe(200);
  return data.id;
}

async function countedAsText(fileId: string): Promise<void> {
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(
      `UPDATE files SET analysis_status = 'counted', analysis_note = null, word_count = 1, page_count = 1, scanned_pages = 0 WHERE id = $1`,
      [fileId],
    );
  } finally {
    await client.end();
  }
}

/** Polls the neighbour's order until `done` settles, recording the slowest answer. */
async function slowestNeighbourPoll(done: Promise<unknown>): Promise<number> {
  let settled = false;
  void done.finally(() => (settled = true));
  let slowest = 0;
  while (!settled) {
    const started = performance.now();
    expect((await call('GET', `/api/v1/orders/${neighbour.orderId}`, neighbour.key)).status).toBe(200);
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return slowest;
}

async function heldOrder(key: string, id: string): Promise<Record<string, unknown>> {
  for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
    const order = (await call('GET', `/api/v1/orders/${id}`, key)).data;
    if (order.status !== 'processing') return order;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`order ${id} is still processing`);
}

it.each([
  ['a 2 KB DOCX of 200,000 empty paragraphs', () => emptyParagraphsDocx(200_000), /unpacks to more than the limit/],
  [
    'the same 200,000 paragraphs stored uncompressed (1.2 MB, walked whole)',
    () => emptyParagraphsDocx(200_000, { compress: false }),
    /no text to translate/,
  ],
  [
    'a 3 MB DOCX with three media parts of 1,000 MB each',
    async () => mediaBombDocx(1000, 3),
    /unpacks to more than the limit/,
  ],
])(
  '%s: translated in the sandbox, held with its reason; the neighbour never waits and memory stays under the ceiling',
  async (_name, make, reason) => {
    const content = await make();
    const pid = service.child.pid!;
    const baseline = serviceMemoryBytes(pid);
    const peak = samplePeakMemory(pid);
    const orderId = await paidOrder(attacker, content);
    const held = heldOrder(attacker, orderId);
    const slowest = await slowestNeighbourPoll(held);
    const peakBytes = peak.stop();

    expect(await held).toMatchObject({ status: 'on_hold', hold_reason: expect.stringMatching(reason) });
    expect({ slowestPollMs: Math.round(slowest), underASecond: slowest < 1000 }).toMatchObject({ underASecond: true });
    const overBaselineMb = (peakBytes - baseline) / 1024 / 1024;
    expect({ overBaselineMb: Math.round(overBaselineMb), withinCeiling: overBaselineMb <= CEILING_MB }).toMatchObject({
      withinCeiling: true,
    });
  },
  150_000,
);
