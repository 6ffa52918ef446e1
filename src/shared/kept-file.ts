import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The content of the file at `path`, made by `make` and kept there when the file does not exist yet. Processes
 * starting together on one data directory (`npm run serve` and `npm run worker`, parallel tests) may each make
 * one: the first file linked in place wins and every process uses it, so they all share one secret, and none
 * reads a half-written file.
 */
export function keptFile(path: string, make: () => Buffer): Buffer {
  if (existsSync(path)) return readFileSync(path);
  const bytes = make();
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, bytes, { mode: 0o600 });
  try {
    linkSync(temporary, path);
    return bytes;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(path);
  } finally {
    rmSync(temporary, { force: true });
  }
}
