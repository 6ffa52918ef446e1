import { readdirSync, readFileSync } from 'node:fs';

/**
 * Memory of a service and its child processes, read from /proc (Linux), for the analysis benchmark and the
 * memory-ceiling test. The service counts with its whole resident set; a child with the memory it made itself
 * (anonymous and shared-memory pages): its file-backed pages are the node executable and libraries the service
 * has mapped already, the same physical pages.
 */
export function serviceMemoryBytes(pid: number): number {
  const own = statusField(pid, 'VmRSS');
  return (
    own +
    childrenOf(pid).reduce((sum, child) => sum + statusField(child, 'RssAnon') + statusField(child, 'RssShmem'), 0)
  );
}

/** The process's own resident set, without its children: what an upload costs the service itself. */
export const residentBytes = (pid: number): number => statusField(pid, 'VmRSS');

function statusField(pid: number, name: string): number {
  try {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0; // the process ended between listing and reading
  }
}

/** Direct children, whichever of the process's threads started them. */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** Samples `measure` (serviceMemoryBytes unless told) every `intervalMs` until stopped; `stop()` answers the peak seen. */
export function samplePeakMemory(pid: number, intervalMs = 5, measure = serviceMemoryBytes): { stop(): number } {
  let peak = measure(pid);
  const timer = setInterval(() => (peak = Math.max(peak, measure(pid))), intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, measure(pid));
    },
  };
}

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
