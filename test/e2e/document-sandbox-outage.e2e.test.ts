import { AnalysisStatus, StoredFile } from '../../src/domain/files/file.entity';
import { pdf, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { pollUntil } from '../helpers/poll';
import { capturedLogs } from '../helpers/captured-logs';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D25: a document sandbox whose children cannot start (here a memory limit no runtime can start under, 9 MB) is an
 * outage, not a hostile document: logged at error, reported by /readyz and /metrics, files end uncountable with
 * that reason instead of pending for ever, and a quote that needs them answers 503 with Retry-After, never 500.
 */
const { logger: capturing, lines: logLines } = capturedLogs<{ level: number; msg: string }>();
let t: TestApp;
let own: TestAccount;
let fileId: string;
beforeAll(async () => {
  t = await startTestApp({
    logger: capturing,
    config: { documentSandbox: { workMemoryMb: 8, runtimeMemoryMb: 1, processes: 1, startTimeoutMs: 2000 } },
  });
  own = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(() => t.close());

it('ends uploads uncountable, answers quotes 503 with Retry-After, and reports the outage', async () => {
  const file = await uploadFile(t, own.key, await pdf([words(300)]), 'contract.pdf');
  fileId = file.id;
  const stored = await pollUntil(
    () => t.orm.em.fork().findOneOrFail(StoredFile, { id: file.id }),
    (row) => row.analysisStatus !== AnalysisStatus.PENDING,
    { timeoutMs: 30_000, failure: (row) => `file still ${row.analysisStatus}` },
  );
  expect({ status: stored.analysisStatus, note: stored.analysisNote }).toEqual({
    status: 'uncountable',
    note: 'analysis_unavailable',
  });

  const quote = await t.rest.post(
    '/api/v1/quotes',
    { source_language: 'es', target_language: 'en', service_type: 'certified', file_ids: [file.id] },
    own.key,
  );
  expect(quote.status).toBe(503);
  expect(quote.body).toEqual({ message: 'Document processing unavailable.' });
  expect(Number(quote.headers['retry-after'])).toBeGreaterThan(0);
  // Nothing was made of the refused quote.
  expect((await t.rest.get('/api/v1/quotes', own.key).expect(200)).body.data).toEqual([]);
  expect(await t.orm.em.fork().count(StoredFile, { id: file.id, analysisStatus: AnalysisStatus.UNCOUNTABLE })).toBe(1);

  const ready = await t.rest.get('/readyz').expect(503);
  expect(ready.body.checks).toMatchObject({ database: 'ok', migrations: 'ok', documents: 'failing' });
  const metrics = (await t.rest.get('/metrics').expect(200)).text;
  expect(metrics).toMatch(/^document_sandbox_up 0$/m);
  expect(metrics).toMatch(/^document_sandbox_start_failures_total [1-9]/m);
  expect(logLines.filter((line) => line.level >= 50).map((line) => line.msg)).toContainEqual(
    expect.stringContaining('document sandbox outage'),
  );
}, 60_000);

it('analyses again once a child can start: the quote that needs the file counts it', async () => {
  // The same deployment restarted with a limit a child can start under: same database, same stored files.
  const healthy = await startTestApp({ databaseOf: t, workers: false, config: { storage: t.config.storage } });
  try {
    const quote = await healthy.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'certified', file_ids: [fileId] },
        own.key,
      )
      .expect(201);
    expect(quote.body.data.unit_count).toBe(2); // 300 words: two billing pages
    expect((await healthy.rest.get('/readyz').expect(200)).body.checks.documents).toBe('ok');
  } finally {
    await healthy.close();
  }
}, 60_000);
