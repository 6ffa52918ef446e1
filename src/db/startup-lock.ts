import { Client } from 'pg';

/** An arbitrary constant: the id of "this service is setting up its schema" in pg_advisory_lock's key space. */
const STARTUP_LOCK = 724_118_001;

/**
 * Runs `work` while holding a PostgreSQL advisory lock, so that processes starting together (HTTP and workers
 * scaled apart, D11) run migrations and queue set-up one after the other instead of deadlocking.
 */
export async function withStartupLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK]);
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
    await client.end();
  }
}
