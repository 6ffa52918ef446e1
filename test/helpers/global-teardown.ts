import { rmSync } from 'node:fs';
import type { EmbeddedDatabase } from '../../src/db/embedded-postgres';
import { RUN_DIR_ENV, TEMPLATE_ENV, withAdminClient } from './test-database';

/** Every layer's teardown: the template database and the embedded server when a setup made them, then the run's root. */
export default async function globalTeardown(): Promise<void> {
  const template = process.env[TEMPLATE_ENV];
  if (template) await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`));
  await (globalThis as { __ltkEmbedded?: EmbeddedDatabase }).__ltkEmbedded?.stop();
  // Everything the run wrote (the test server's data included) lives under its one temporary root.
  const runDir = process.env[RUN_DIR_ENV];
  if (runDir) rmSync(runDir, { recursive: true, force: true });
}
