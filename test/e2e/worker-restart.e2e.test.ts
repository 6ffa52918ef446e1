import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { assertBuilt, cleanEnv, MAIN, startProcess } from '../helpers/service-process';
import { startTestApp } from '../helpers/test-app';
import { createTestDatabase } from '../helpers/test-database';

// A file of its own: the longest test of the process suites, so that jest can run it beside the others.
beforeAll(assertBuilt);

describe('a worker killed in the middle of a translation (D11, D26)', () => {
  it('is restarted and finishes the order with exactly one translation per source file', async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'ltk-kill-'));
    // The shortest heartbeat pg-boss allows: the dead worker's job is handed out again seconds after its last beat.
    const env = cleanEnv({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      JOBS_POLLING_INTERVAL_SECONDS: '0.5',
      JOBS_HEARTBEAT_SECONDS: '10',
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
      const translations = async () =>
        (
          await t.orm.em
            .fork()
            .getConnection()
            .execute(`SELECT count(*)::int AS n FROM files WHERE derived_from_id IS NOT NULL`)
        )[0].n as number;
      const orderId = await paidOrder(t, account, ids);

      // Kill -9 as soon as the first translation is stored, while the rest are still to do.
      for (let i = 0; i < 500 && (await translations()) === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      worker.child.kill('SIGKILL');
      await worker.exited;
      const done = await translations();
      expect(done).toBeGreaterThan(0);
      expect(done).toBeLessThan(20);

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
      expect(await translations()).toBe(20);
    } finally {
      if (worker.child.exitCode === null) worker.child.kill('SIGTERM');
      await worker.exited;
      await t.close();
      await database.drop();
    }
  }, 180_000);
});
