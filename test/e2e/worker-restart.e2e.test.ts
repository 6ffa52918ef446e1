import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDeepLStandIn } from '../helpers/deepl-stand-in';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { pollUntil } from '../helpers/poll';
import { assertBuilt, cleanEnv, MAIN, startProcess } from '../helpers/service-process';
import { startTestApp } from '../helpers/test-app';
import { createTestDatabase } from '../helpers/test-database';

// A file of its own: the longest test of the process suites, so that jest can run it beside the others.
beforeAll(assertBuilt);

describe('a worker killed in the middle of a translation (D11, D26)', () => {
  it('is restarted and finishes the order with exactly one translation per source file', async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'ltk-kill-'));
    // The engine finishes the first document only: the worker is killed in a known state, one translation stored
    // and the next one accepted by the engine and waited for, however fast or slow the machine.
    const deepl = await startDeepLStandIn();
    deepl.mode.finishing = 1;
    // The shortest heartbeat pg-boss allows: the dead worker's job is handed out again seconds after its last beat.
    const env = cleanEnv({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      JOBS_POLLING_INTERVAL_SECONDS: '0.5',
      JOBS_HEARTBEAT_SECONDS: '10',
      TRANSLATION_ENGINE: 'deepl',
      DEEPL_AUTH_KEY: deepl.authKey,
      DEEPL_SERVER_URL: deepl.serverUrl,
    });
    // This test's own app takes the requests (no workers); the spawned process does the jobs, on the same storage.
    const t = await startTestApp({
      databaseOf: { database },
      workers: false,
      config: { storage: { driver: 'local', dir: join(dataDir, 'files') } },
    });
    let worker = startProcess(MAIN, ['--role', 'worker'], env);
    try {
      await worker.waitFor(/working on jobs/, 60_000);
      const account = await createApprovedAccount(t, await createStaffToken(t));
      const ids: string[] = [];
      for (let i = 0; i < 20; i++)
        ids.push(
          (
            await uploadFile(
              t,
              account.key,
              await docx({ paragraphs: [words(400), `Documento ${i}`] }),
              `doc-${i}.docx`,
            )
          ).id,
        );
      const progress = async () =>
        (
          await t.orm.em
            .fork()
            .getConnection()
            .execute(
              `SELECT (SELECT count(*)::int FROM files WHERE derived_from_id IS NOT NULL) AS stored,
                      (SELECT count(*)::int FROM translation_engine_requests) AS waiting`,
            )
        )[0] as { stored: number; waiting: number };
      const orderId = await paidOrder(t, account, ids);

      // Kill -9 once the first translation is stored and the second is with the engine, the rest still to do.
      await pollUntil(progress, ({ stored, waiting }) => stored === 1 && waiting === 1, {
        failure: (last) => `the worker never got to its second document: ${JSON.stringify(last)}`,
        timeoutMs: 60_000,
      });
      worker.child.kill('SIGKILL');
      await worker.exited;
      expect(await progress()).toEqual({ stored: 1, waiting: 1 });
      deepl.mode.finishing = Infinity;

      // The dead worker's heartbeat stops and the job is handed out again: the order completes within two minutes
      // of the restart (D26), with nothing done by hand to the queue.
      worker = startProcess(MAIN, ['--role', 'worker'], env);
      // Every status an order can leave processing for: the wait ends on any of them, and only one is right.
      const order = await waitForStatus(
        t,
        account,
        orderId,
        ['completed', 'in_review', 'on_hold', 'cancelled'],
        120_000,
      );
      expect(order.status).toBe('completed');
      const names = order.files
        .filter((f: { type: string }) => f.type === 'translation')
        .map((f: { name: string }) => f.name);
      expect(names).toHaveLength(20);
      expect(new Set(names).size).toBe(20);
      expect((await progress()).stored).toBe(20);
      // The document the dead worker was waiting for was resumed, not sent to the engine again (D11).
      expect(deepl.calls.filter((call) => call === 'POST /v2/document')).toHaveLength(20);
    } finally {
      if (worker.child.exitCode === null) worker.child.kill('SIGTERM');
      await worker.exited;
      await t.close();
      await deepl.close();
      await database.drop();
    }
  }, 180_000);
});
