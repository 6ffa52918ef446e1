import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_WORKER_SCRIPT } from '../../src/db/paths';
import { PDF } from '../../src/documents/formats';
import { DEFAULT_BOUNDS, DocumentSandbox } from '../../src/documents/sandbox/document-sandbox';
import { SandboxProcess } from '../../src/documents/sandbox/sandbox-process';
import { createLogger } from '../../src/shared/logger';
import { pdf, words } from '../helpers/documents';

/** The compiled sandbox, as a service process loads it. */
const DIST_SANDBOX = dirname(SANDBOX_WORKER_SCRIPT);

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
    await withChild(async (child) => {
      const outcome = child.run({ kind: 'analyse', path: shortPdf, mimeType: PDF }, 1_000);
      child.pause(10_000);
      await sleep(1_500);
      expect(stateOf(child.pid!)).toBe('T');
      child.resume();
      expect(await outcome).toMatchObject({ kind: 'answered', answer: { kind: 'done' } });
    });
  });

  it('leaves no stopped child behind when its service is killed during a pause, in a session of its own', async () => {
    // A service as a supervisor runs it (a session of its own, as setsid and systemd do), killed with SIGKILL.
    const service = spawn(
      process.execPath,
      [
        '-e',
        `const { SandboxProcess } = require(${JSON.stringify(join(DIST_SANDBOX, 'sandbox-process.js'))});
         const child = new SandboxProcess({ dataLimitKb: 4194304, heapMb: 256, startTimeoutMs: 30000 }, ${JSON.stringify(SANDBOX_WORKER_SCRIPT)});
         setInterval(() => undefined, 1000); // an idle child holds no service open
         child.started().then(() => { child.pause(500); console.log(child.pid); });`,
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(service.stdout, 'data')) as [Buffer];
    const childPid = Number(line.toString().trim());
    expect(await until(() => stateOf(childPid) === 'T')).toBe(true);
    service.kill('SIGKILL');
    try {
      // The waker continues it after the pause's bound; it finds its channel closed and exits.
      expect(await until(() => !existsSync(`/proc/${childPid}`), 5_000)).toBe(true);
    } finally {
      if (existsSync(`/proc/${childPid}`)) process.kill(childPid, 'SIGKILL');
    }
  });
});

/** A warm child of its own for `work`, killed after. */
async function withChild(work: (child: SandboxProcess) => Promise<void>): Promise<void> {
  const child = new SandboxProcess(
    { dataLimitKb: 4 * 1024 * 1024, heapMb: 256, startTimeoutMs: 30_000 },
    SANDBOX_WORKER_SCRIPT,
  );
  try {
    await child.started();
    await work(child);
  } finally {
    child.kill();
  }
}

/** Whether `check` holds within `ms`, asked every few milliseconds. */
async function until(check: () => boolean, ms = 1_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(5)) if (check()) return true;
  return check();
}
