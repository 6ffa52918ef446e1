import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_DIR_ENV } from './test-database';

/**
 * One temporary root per run: every test's tmpdir() (and its child processes') is under it, so a run reads no other
 * run's files and the teardown removes everything it wrote. Traversable: as root the embedded server runs as the
 * postgres OS user and keeps its data in here. Every layer's setup starts with it; the first one makes it.
 */
export default function runSetup(): void {
  if (process.env[RUN_DIR_ENV]) return;
  const runDir = mkdtempSync(join(tmpdir(), 'ltk-test-run-'));
  chmodSync(runDir, 0o711);
  process.env.TMPDIR = runDir;
  process.env[RUN_DIR_ENV] = runDir;
}
