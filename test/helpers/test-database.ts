import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * One PostgreSQL server per run (embedded unless TEST_DATABASE_URL is set), one migrated template database
 * made by the global setup, and one database per test file copied from it (fast, and files never share data).
 */
export const TEMPLATE_ENV = 'LTK_TEST_TEMPLATE_DATABASE';
export const SERVER_ENV = 'LTK_TEST_SERVER_URL';
/** What the runtime needs to start a document sandbox child, in MB, measured once by the global setup. */
export const RUNTIME_MEMORY_ENV = 'LTK_TEST_SANDBOX_RUNTIME_MB';
/** The run's temporary root (also TMPDIR), made by the global setup and removed by the teardown. */
export const RUN_DIR_ENV = 'LTK_TEST_RUN_DIR';

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdminClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: process.env[SERVER_ENV] });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database: a copy of the migrated template, or empty (to test what happens before migrations). */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `ltk_t_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? 'template0' : process.env[TEMPLATE_ENV]!;
  await withAdminClient(async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        // Two files copying the template at the same instant: PostgreSQL asks the second to wait.
        if (attempt > 20 || !/is being accessed by other users/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
  return {
    url: databaseUrl(process.env[SERVER_ENV]!, name),
    drop: () =>
      withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
