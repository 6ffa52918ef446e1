import type { EmbeddedDatabase } from '../../src/db/embedded-postgres';
import { TEMPLATE_ENV, withAdminClient } from './test-database';

export default async function globalTeardown(): Promise<void> {
  await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${process.env[TEMPLATE_ENV]}" WITH (FORCE)`));
  await (globalThis as { __ltkEmbedded?: EmbeddedDatabase }).__ltkEmbedded?.stop();
}
