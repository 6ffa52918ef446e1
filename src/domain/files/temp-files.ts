import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Longer than any temporary file lives while its owner runs (an upload within the HTTP request timeout, an
 * analysis within its deadline, a translation attempt), so a loose file this old was left by a process that died.
 */
export const STALE_AFTER_MS = 60 * 60 * 1000;

/** A process's own folder under `<DATA_DIR>/tmp`, named by its ProcessClaim id. */
const PROCESS_DIR = /^p(\d{1,10})$/;

/**
 * The service's own temporary directory, `<DATA_DIR>/tmp/p<process id>` (D25): every temporary file of the service
 * is made in its process's folder, never in the system's, so that what a killed process left behind is found
 * and removed at the next start of any process (removeDeadProcessTempDirs).
 */
export function serviceTempDir(dataDir: string, processId: number): string {
  const dir = join(dataDir, 'tmp', `p${processId}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Removes the folders of processes that are not alive; answers their names. */
export async function removeDeadProcessTempDirs(root: string, liveIds: () => Promise<Set<number>>): Promise<string[]> {
  // Listed before liveness is asked: a folder listed was made by a process whose claim was taken before it.
  const folders = (await readdir(root)).filter((name) => PROCESS_DIR.test(name));
  const live = await liveIds();
  const dead = folders.filter((name) => !live.has(Number(PROCESS_DIR.exec(name)![1])));
  for (const name of dead) await rm(join(root, name), { recursive: true, force: true });
  return dead;
}

/**
 * Removes what is older than `maxAgeMs` loose in the temporary directory (left by a version of the service that
 * had no process folders); answers the names removed. Process folders are removeDeadProcessTempDirs's.
 */
export async function removeStaleTempFiles(root: string, maxAgeMs = STALE_AFTER_MS): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(root)) {
    if (PROCESS_DIR.test(name)) continue;
    const path = join(root, name);
    const modified = await stat(path).then(
      (s) => s.mtimeMs,
      () => undefined,
    ); // gone meanwhile: its owner finished
    if (modified === undefined || Date.now() - modified < maxAgeMs) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
