import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Longer than any temporary file lives while its owner runs (an upload within the HTTP request timeout, an
 * analysis within its deadline, a translation attempt), so a file this old was left by a process that died.
 */
export const STALE_AFTER_MS = 60 * 60 * 1000;

/**
 * The service's own temporary directory, `<DATA_DIR>/tmp` (D25): every temporary file of the service is made
 * here, never in the system's, so that what a killed process left behind is found and removed later.
 */
export function serviceTempDir(dataDir: string): string {
  const dir = join(dataDir, 'tmp');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Removes what is older than `maxAgeMs` in the temporary directory; answers the names removed. */
export async function removeStaleTempFiles(dir: string, maxAgeMs = STALE_AFTER_MS): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    const modified = await stat(path).then((s) => s.mtimeMs, () => undefined); // gone meanwhile: its owner finished
    if (modified === undefined || Date.now() - modified < maxAgeMs) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
