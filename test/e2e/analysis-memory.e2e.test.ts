import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samplePeakMemory, serviceMemoryBytes } from '../../bench/process-memory';
import { deeplyNestedPdf, encryptedPdf, pdf, pdfBomb, words, zipBombDocx } from '../helpers/documents';
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { assertBuilt, cleanEnv, MAIN, startProcess, type RunningProcess } from '../helpers/service-process';
import { startTestApp } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

/**
 * D25: a hostile document of any size up to the upload limit ends uncountable within 30 s, and the memory of
 * the real service process (with its analysis child) never goes past its baseline plus ANALYSIS_MAX_MEMORY_MB.
 */
const CEILING_MB = 512;
const MB20 = 20 * 1024 * 1024;

let database: TestDatabase;
let service: RunningProcess;
let base: string;
let key: string;
beforeAll(async () => {
  assertBuilt();
  database = await createTestDatabase();
  const env = cleanEnv({
    DATABASE_URL: database.url,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-memory-')),
    PORT: '0',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '100000',
    ANALYSIS_MAX_MEMORY_MB: String(CEILING_MB),
  });
  service = startProcess(MAIN, [], env);
  base = `http://127.0.0.1:${JSON.parse(await service.waitFor(/listening on port/, 60_000)).port}`;
  const setup = await startTestApp({ databaseOf: { database }, workers: false });
  try {
    key = (await createApprovedAccount(setup, await createStaffToken(setup))).key;
  } finally {
    await setup.close();
  }
}, 90_000);
afterAll(async () => {
  if (service?.child.exitCode === null) service.child.kill('SIGTERM');
  await service?.exited;
  await database?.drop();
});

async function upload(content: Buffer, name: string): Promise<{ id: string; uploadedAt: number }> {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  const res = await fetch(`${base}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return { id: ((await res.json()) as { data: { id: string } }).data.id, uploadedAt: Date.now() };
}

/**
 * Far past the sandbox's own deadline: the rule is that a hostile document ends uncountable instead of hanging; how
 * fast is bench:analysis's, since the five here share two sandbox children with the rest of the suite's load.
 */
const NEVER_HANGS_S = 90;

/** Polls until the analysis has finished; answers the status and the seconds since the upload was answered. */
async function analysed({
  id,
  uploadedAt,
}: {
  id: string;
  uploadedAt: number;
}): Promise<{ status: string; seconds: number }> {
  for (;;) {
    const res = await fetch(`${base}/api/v1/files/${id}`, { headers: { authorization: `Bearer ${key}` } });
    const status = ((await res.json()) as { data: { analysis_status: string } }).data.analysis_status;
    const seconds = (Date.now() - uploadedAt) / 1000;
    if (status !== 'pending' || seconds > NEVER_HANGS_S) return { status, seconds };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('analyses hostile documents to uncountable, never hanging, within the memory ceiling', async () => {
  const hostile: [string, Buffer][] = [
    ['a 1 MB PDF bomb (1 GiB inflated)', pdfBomb(1)],
    ['a PDF bomb near the upload limit (20 pages of 1 GiB)', pdfBomb(20)],
    ['a PDF nested 100,000 deep', deeplyNestedPdf(100_000)],
    ['an encrypted PDF', encryptedPdf()],
    ['a DOCX zip bomb (1 GiB inflated)', zipBombDocx(1024)],
  ];
  expect(hostile[1][1].length).toBeGreaterThan(MB20 - 512 * 1024);
  expect(hostile[1][1].length).toBeLessThanOrEqual(MB20);

  // The baseline: the service after it has analysed an ordinary document (its analysis child started and warm).
  expect(await analysed(await upload(await pdf([words(400)]), 'ordinary.pdf'))).toMatchObject({ status: 'counted' });
  const pid = service.child.pid!;
  const baseline = serviceMemoryBytes(pid);

  const peak = samplePeakMemory(pid);
  const uploads = [];
  for (const [, content] of hostile) uploads.push(await upload(content, 'hostile.bin'));
  const outcomes = [];
  for (const [i, uploaded] of uploads.entries())
    outcomes.push({ document: hostile[i][0], ...(await analysed(uploaded)) });
  const peakBytes = peak.stop();

  for (const outcome of outcomes) {
    expect(outcome).toMatchObject({ status: 'uncountable' });
    expect(outcome.seconds).toBeLessThan(NEVER_HANGS_S);
  }
  const overBaselineMb = (peakBytes - baseline) / 1024 / 1024;
  expect({ overBaselineMb: Math.round(overBaselineMb), withinCeiling: overBaselineMb <= CEILING_MB }).toMatchObject({
    withinCeiling: true,
  });
}, 180_000);
