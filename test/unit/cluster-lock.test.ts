import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pollUntil } from '../helpers/poll';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClusterLock } from '../../src/db/embedded-postgres-holders';

/** A process's start time as /proc gives it (Linux), which the lock's files record beside the pid. */
const startTime = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};

describe('the embedded server lock of a DATA_DIR', () => {
  let dataDir: string;
  beforeEach(() => void (dataDir = mkdtempSync(join(tmpdir(), 'ltk-lock-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it("removes the waiting files of processes killed while they waited, and keeps a live waiter's", async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    const waiting = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await new Promise((resolve) => waiting.once('spawn', resolve));
      writeFileSync(join(dataDir, `postgres.lock.${dead.pid}`), JSON.stringify({ pid: dead.pid }));
      writeFileSync(
        join(dataDir, `postgres.lock.${waiting.pid}`),
        JSON.stringify({ pid: waiting.pid, started: startTime(waiting.pid!) }),
      );

      expect(await withClusterLock(dataDir, async () => 'decided')).toBe('decided');
      expect(existsSync(join(dataDir, `postgres.lock.${dead.pid}`))).toBe(false);
      expect(existsSync(join(dataDir, `postgres.lock.${waiting.pid}`))).toBe(true);
      expect(existsSync(join(dataDir, 'postgres.lock'))).toBe(false);
    } finally {
      waiting.kill('SIGKILL');
    }
  });

  it("waits on when its own waiting file is removed under it (a holder that took its pid for a dead one's)", async () => {
    // Another process holds the lock until told, on its stdin (the compiled module: the test run builds it first).
    const holder = spawn(process.execPath, [
      '-e',
      `require(${JSON.stringify(join(__dirname, '../../dist/src/db/embedded-postgres-holders.js'))}).withClusterLock(process.argv[1], () => new Promise((r) => process.stdin.once('data', r)))`,
      dataDir,
    ]);
    try {
      await pollUntil(async () => existsSync(join(dataDir, 'postgres.lock')), Boolean, {
        failure: () => 'the other process never took the lock',
      });
      const waiting = withClusterLock(dataDir, async () => 'decided');
      rmSync(join(dataDir, `postgres.lock.${process.pid}`));
      holder.stdin.end('release');
      expect(await waiting).toBe('decided');
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
