import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which process started the embedded server of a DATA_DIR, kept in DATA_DIR/postgres.owner. A server whose owner
 * is alive is joined (the CLI while the service runs); one whose owner is gone is an orphan of a killed run
 * (SIGKILL, OOM killer) and is stopped before a new one starts (README "Operations": why stop rather than reuse).
 */
interface Owner {
  pid: number;
  started?: string;
}

const ownerFile = (dataDir: string) => join(dataDir, 'postgres.owner');

export function recordOwner(dataDir: string): void {
  writeFileSync(ownerFile(dataDir), JSON.stringify({ pid: process.pid, started: startTime(process.pid) } satisfies Owner));
}

export function forgetOwner(dataDir: string): void {
  rmSync(ownerFile(dataDir), { force: true });
}

/** True when the recorded owner still runs (the same process, not a later one that reused its pid). */
export function ownerAlive(dataDir: string): boolean {
  let owner: Owner;
  try {
    owner = JSON.parse(readFileSync(ownerFile(dataDir), 'utf8')) as Owner;
  } catch {
    return false;
  }
  return owner.pid !== process.pid && alive(owner.pid) && startTime(owner.pid) === owner.started;
}

/** The live postmaster of a cluster directory, from its postmaster.pid; a stale lock file is removed. */
export function runningServer(clusterDir: string): { pid: number; port: number } | undefined {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n').map(Number);
  if (alive(pid) && isPostgres(pid)) return { pid, port };
  rmSync(pidFile, { force: true });
  return undefined;
}

/** Fast shutdown (SIGINT) of a server this process did not start; immediate shutdown if it lingers. */
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
