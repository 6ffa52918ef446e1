import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_WORKER_SCRIPT } from '../../src/db/paths';
import { PDF } from '../../src/documents/formats';
import { DEFAULT_BOUNDS, DocumentSandbox } from '../../src/documents/sandbox/document-sandbox';
import { SandboxProcess } from '../../src/documents/sandbox/sandbox-process';
import { createLogger } from '../../src/shared/logger';
import { pdf, words } from '../helpers/documents';

/** The scheduler state of a process (`R` running, `S` sleeping, `T` stopped), from /proc. */
const stateOf = (pid: number): string => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0];

let dir: string;
let longPdf: string;
let shortPdf: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-yield-'));
  longPdf = join(dir, 'long.pdf');
  shortPdf = join(dir, 'short.pdf');
  writeFileSync(longPdf, await pdf(Array.from({ length: 600 }, () => words(600, 'lengthy'))));
  writeFileSync(shortPdf, await pdf([words(300), words(300)]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a long document yields its core to another account's newer one (D25)", () => {
  it("pauses the flood's child while the newcomer's document is counted, then lets it finish", async () => {
    const sandbox = new DocumentSandbox(
      { ...DEFAULT_BOUNDS, processes: 2, workerScript: SANDBOX_WORKER_SCRIPT },
      createLogger('silent'),
    );
    try {
      sandbox.warm();
      await sandbox.analyse('warm-up', shortPdf, PDF);
      const long = sandbox.analyse('flood', longPdf, PDF);
      await sleep(800); // long enough to count as a long task
      const floodChild = sandbox.pid!;
      expect(stateOf(floodChild)).not.toBe('T');

      const seen = new Set<string>();
      let counted = false;
      const short = sandbox.analyse('newcomer', shortPdf, PDF).finally(() => (counted = true));
      while (!counted) {
        seen.add(stateOf(floodChild));
        await sleep(1);
      }
      expect(await short).toMatchObject({ kind: 'counted', words: 600 });
      expect(seen).toContain('T');
      expect(stateOf(floodChild)).not.toBe('T');
      expect(await long).toMatchObject({ kind: 'counted', words: 600 * 600 });
    } finally {
      sandbox.close();
    }
  });

  it('stops the deadline while paused: a pause longer than the deadline does not time the task out', async () => {
    const child = new SandboxProcess(
      { dataLimitKb: 4 * 1024 * 1024, heapMb: 256, startTimeoutMs: 30_000 },
      SANDBOX_WORKER_SCRIPT,
    );
    try {
      await child.started();
      const outcome = child.run({ kind: 'analyse', path: shortPdf, mimeType: PDF }, 1_000);
      child.pause(10_000);
      await sleep(1_500);
      expect(stateOf(child.pid!)).toBe('T');
      child.resume();
      expect(await outcome).toMatchObject({ kind: 'answered', answer: { kind: 'done' } });
    } finally {
      child.kill();
    }
  });

  it('lets a paused child run again after its bound even when nothing here resumes it (its service died)', async () => {
    const child = new SandboxProcess(
      { dataLimitKb: 4 * 1024 * 1024, heapMb: 256, startTimeoutMs: 30_000 },
      SANDBOX_WORKER_SCRIPT,
    );
    try {
      await child.started();
      child.pause(500);
      let stopped = false;
      for (let i = 0; i < 100 && !stopped; i++, await sleep(2)) stopped = stateOf(child.pid!) === 'T';
      expect(stopped).toBe(true);
      await sleep(1_500);
      expect(stateOf(child.pid!)).not.toBe('T');
    } finally {
      child.kill();
    }
  });
});
