import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which processes use the embedded server of a DATA_DIR: one file per process in DATA_DIR/postgres.holders, named
 * by its pid and holding its start time (a later process that reuses the pid is not mistaken for it). The server
 * runs while any holder lives: the first process starts it, the others join it (the CLI while the service runs,
 * `serve` beside `worker`), and the last one to leave stops it, whichever started it. A server with no live holder
 * is an orphan of killed runs (SIGKILL, the OOM killer) and is stopped before a new one starts (README
 * "Operations": why stop rather than reuse). Every decision to start, join or leave is taken under
 * DATA_DIR/postgres.lock, so two processes starting or stopping at once never both start a server or stop it
 * under each other.
 */
interface Process {
  pid: number;
  started?: string;
}

const holdersDir = (dataDir: string) => join(dataDir, 'postgres.holders');
const lockFile = (dataDir: string) => join(dataDir, 'postgres.lock');
const self = (): Process => ({ pid: process.pid, started: startTime(process.pid) });
const live = (holder: Process) => alive(holder.pid) && startTime(holder.pid) === holder.started;

/** Runs `work` as the only process deciding about this DATA_DIR's server; a lock left by a dead process is taken over. */
export async function withClusterLock<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  const path = lockFile(dataDir);
  // Written whole beside the lock, then linked into place: the lock never exists without its holder's name.
  const mine = `${path}.${process.pid}`;
  writeFileSync(mine, JSON.stringify(self()), { mode: 0o600 });
  try {
    for (;;) {
      try {
        linkSync(mine, path);
        break;
      } catch (error) {
        // Our own waiting file removed by a holder that took it for a dead process's (a reused pid): write it again.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          writeFileSync(mine, JSON.stringify(self()), { mode: 0o600 });
          continue;
        }
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        // A lock left by a process killed while deciding is taken over (two waiters racing for a dead one's lock
        // could both go on: that takes a kill during a start and two more starts within the same second).
        const holder = readProcess(path);
        if (holder && !live(holder)) rmSync(path, { force: true });
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    rmSync(mine, { force: true });
  }
  try {
    removeDeadWaiters(dataDir);
    return await work();
  } finally {
    rmSync(path, { force: true });
  }
}

/** The waiting files (`postgres.lock.<pid>`) of processes killed while they waited for the lock; best effort. */
function removeDeadWaiters(dataDir: string): void {
  try {
    for (const name of readdirSync(dataDir)) {
      const pid = /^postgres\.lock\.(\d+)$/.exec(name)?.[1];
      if (!pid) continue;
      const waiter = readProcess(join(dataDir, name));
      if (!alive(Number(pid)) || (waiter && !live(waiter))) rmSync(join(dataDir, name), { force: true });
    }
  } catch {
    // Leftovers are harmless; a start or a stop must not fail over them.
  }
}

export function hold(dataDir: string): void {
  mkdirSync(holdersDir(dataDir), { recursive: true });
  writeFileSync(join(holdersDir(dataDir), String(process.pid)), JSON.stringify(self()));
}

export function release(dataDir: string): void {
  rmSync(join(holdersDir(dataDir), String(process.pid)), { force: true });
}

/** The pids of the other live holders; the files of dead ones are removed on the way. */
export function otherHolders(dataDir: string): number[] {
  const dir = holdersDir(dataDir);
  if (!existsSync(dir)) return [];
  const pids: number[] = [];
  for (const name of readdirSync(dir)) {
    const holder = readProcess(join(dir, name));
    if (holder && live(holder)) {
      if (holder.pid !== process.pid) pids.push(holder.pid);
    } else if (holder) rmSync(join(dir, name), { force: true });
  }
  return pids;
}

/** The live postmaster of a cluster directory, from its postmaster.pid; a stale lock file is removed. */
export function runningServer(clusterDir: string): { pid: number; port: number } | undefined {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [recorded, , , port] = readFileSync(pidFile, 'utf8').split('\n').map(Number);
  // A negative pid is a standalone backend's, such as initdb's bootstrap: the process is still its absolute value.
  const pid = Math.abs(recorded);
  if (alive(pid) && isPostgres(pid)) return { pid, port };
  rmSync(pidFile, { force: true });
  return undefined;
}

/** Fast shutdown (SIGINT); immediate shutdown if it lingers. */
export async function stopServer(pid: number, timeoutMs = 15_000): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      /* already gone */
    }
  };
  signal('SIGINT');
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) signal('SIGQUIT');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A process record, or undefined while its file is missing or half-written. */
function readProcess(path: string): Process | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Process;
  } catch {
    return undefined;
  }
}

/** A zombie (exited, not yet reaped by a parent that may never reap it) counts as gone. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return true;
  }
}

/** Linux: the process's start time in clock ticks (field 22 of /proc/PID/stat); elsewhere undefined. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Linux: the pid names a postgres process (not another that reused a dead server's pid); elsewhere assumed. */
function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return !existsSync('/proc');
  }
}
