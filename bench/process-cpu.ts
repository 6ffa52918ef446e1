import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of processes, read from /proc (Linux; zero elsewhere), so the polling benchmark can say where a request's
 * cost goes: the server measured, PostgreSQL, and the process making the load.
 */
export function cpuSeconds(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + ownCpuSeconds(pid), 0);
}

/**
 * The CPU time of every PostgreSQL process on the machine (its postmaster and backends), by process, so that a
 * later reading counts only the processes alive at both: a backend that ended in between takes its time with it.
 */
export function postgresCpu(): { byPid: Map<number, number>; since(earlier: { byPid: Map<number, number> }): number } {
  const byPid = new Map(postgresPids().map((pid) => [pid, ownCpuSeconds(pid)]));
  return {
    byPid,
    since: (earlier) =>
      [...byPid].reduce(
        (sum, [pid, seconds]) => sum + (earlier.byPid.has(pid) ? seconds - earlier.byPid.get(pid)! : seconds),
        0,
      ),
  };
}

function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry) && comm(Number(entry)) === 'postgres')
      .map(Number);
  } catch {
    return [];
  }
}

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture node runs on

function ownCpuSeconds(pid: number): number {
  try {
    // Fields after the command (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0; // the process ended between listing and reading
  }
}

function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}
