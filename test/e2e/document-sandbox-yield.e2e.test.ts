import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_WORKER_SCRIPT } from '../../src/db/paths';
import { PDF } from '../../src/documents/formats';
import { DEFAULT_BOUNDS, DocumentSandbox, LONG_TASK_MS } from '../../src/documents/sandbox/document-sandbox';
import { SandboxProcess } from '../../src/documents/sandbox/sandbox-process';
import { createLogger } from '../../src/shared/logger';
import { pdf, words } from '../helpers/documents';

/** The compiled sandbox, as a service process loads it. */
const DIST_SANDBOX = dirname(SANDBOX_WORKER_SCRIPT);

/** The fields of /proc/<pid>/stat after the process name: the state first (`R` running, `S` sleeping, `T` stopped). */
const statOf = (pid: number): string[] => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
const stateOf = (pid: number): string => statOf(pid)[0];
/** The CPU time a process has used, in clock ticks (user and system: fields 14 and 15 of stat). */
const cpuTicksOf = (pid: number): number => {
  const fields = statOf(pid);
  return Number(fields[11]) + Number(fields[12]);
};

let dir: string;
let longPdf: string;
let shortPdf: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-yield-'));
  longPdf = join(dir, 'long.pdf');
  shortPdf = join(dir, 'short.pdf');
  writeFileSync(longPdf, await pdf(Array.from({ length: 600 }, () => words(600, 'lengthy'))));
  writeFileSync(shortPdf, await pdf([words(300), words(300)]));
  // Writing 600 pages takes seconds on a quiet machine and over a minute on a loaded one.
}, 180_000);
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
      // The first slot's child, idle now: the flood's task goes to it.
      const floodChild = sandbox.pid!;
      const idle = cpuTicksOf(floodChild);
      const long = sandbox.analyse('flood', longPdf, PDF);
      const submitted = Date.now();
      // The state the yield needs: the flood's child at work on it, and the task run long enough to be a long one.
      const longAtWork = () => cpuTicksOf(floodChild) > idle && Date.now() - submitted >= LONG_TASK_MS;
      expect(await until(longAtWork, 60_000)).toBe(true);
      expect(stateOf(floodChild)).not.toBe('T');

      const short = sandbox.analyse('newcomer', shortPdf, PDF);
      // The flood's child is stopped as the newcomer's task starts, and continued once its answer has come back
      // through this event loop: watched without giving the loop up, it cannot be continued meanwhile.
      expect(stoppedWithin(floodChild, 5_000)).toBe(true);
      expect(await short).toMatchObject({ kind: 'counted', words: 600 });
      expect(stateOf(floodChild)).not.toBe('T');
      expect(await long).toMatchObject({ kind: 'counted', words: 600 * 600 });
    } finally {
      sandbox.close();
    }
  });

  it('stops the deadline while paused: a pause longer than the deadline does not time the task out', async () => {
    await withChild(async (child) => {
      // The deadline's clock is the test's own, moved by hand: however slow the machine, no deadline passes unless
      // the test moves it there. The child and its signals are real.
      jest.useFakeTimers({
        doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'hrtime', 'performance'],
      });
      try {
        let settled = false;
        // The long document: seconds of work, so its answer cannot come back while the test pauses the child.
        const outcome = child
          .run({ kind: 'analyse', path: longPdf, mimeType: PDF }, 1_000)
          .finally(() => (settled = true));
        await new Promise(setImmediate); // the task is sent and its deadline runs
        jest.advanceTimersByTime(900);
        child.pause(60_000);
        expect(stoppedWithin(child.pid!, 5_000)).toBe(true);
        jest.advanceTimersByTime(10_000); // ten deadlines pass while it is paused
        await new Promise(setImmediate);
        expect(settled).toBe(false);
        child.resume();
        expect(await outcome).toMatchObject({ kind: 'answered', answer: { kind: 'done' } });
      } finally {
        jest.useRealTimers();
      }
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
         // Watched here without giving the loop up: only the waker, after its 2 s, can continue the child meanwhile.
         const state = () => require('fs').readFileSync('/proc/' + child.pid + '/stat', 'utf8').split(') ')[1][0];
         child.started().then(() => {
           child.pause(2000);
           for (const end = Date.now() + 1000; Date.now() < end && state() !== 'T'; );
           console.log(child.pid + ' ' + state());
         });`,
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(service.stdout, 'data')) as [Buffer];
    const [pid, state] = line.toString().trim().split(' ');
    const childPid = Number(pid);
    expect(state).toBe('T');
    service.kill('SIGKILL');
    try {
      // The waker continues it after the pause's bound; it finds its channel closed and exits.
      expect(await until(() => !existsSync(`/proc/${childPid}`), 30_000)).toBe(true);
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

/**
 * Whether process `pid` is stopped within `ms`, watched without giving the event loop up: a resume sent from this
 * process cannot run meanwhile, so a stop that lasts until then is seen however slow the machine.
 */
function stoppedWithin(pid: number, ms: number): boolean {
  for (const end = performance.now() + ms; performance.now() < end;) if (stateOf(pid) === 'T') return true;
  return stateOf(pid) === 'T';
}

/** Whether `check` holds within `ms` (a bound for a state that comes), asked every few milliseconds. */
async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(5)) if (check()) return true;
  return check();
}
