import type { PgBoss } from 'pg-boss';
import { Client } from 'pg';

/**
 * pg-boss 11 rewrote its tables and ships no migration from pg-boss 10's (schema version 24); its release notes
 * say to install the new schema and move the jobs across. So: before pg-boss starts, a version-24 `pgboss`
 * schema is renamed `pgboss_v10`; pg-boss then installs its own `pgboss`; after the queues exist, the jobs not
 * yet finished move into them (through pg-boss's insert, so each takes its queue's current policy) and the old
 * schema is dropped in the same transaction. Both steps hold one advisory lock, so processes starting together
 * do it once; a process that dies between them leaves `pgboss_v10` for the next start to finish.
 */
const OLD_SCHEMA = 'pgboss_v10';
const PG_BOSS_10_SCHEMA_VERSION = 24;
const LOCK = "pg_advisory_xact_lock(hashtext('ltk:pg-boss-10-upgrade'))";

/** Renames a pg-boss 10 schema out of pg-boss 12's way; nothing to do on a fresh or upgraded database. */
export async function setAsidePgBoss10(connectionString: string): Promise<void> {
  await inLockedTransaction(connectionString, async (client) => {
    const { rows: installed } = await client.query(`SELECT 1 FROM pg_class WHERE oid = to_regclass('pgboss.version')`);
    if (installed.length === 0) return;
    const { rows } = await client.query<{ version: number }>(`SELECT max(version) AS version FROM pgboss.version`);
    if (rows[0].version === PG_BOSS_10_SCHEMA_VERSION) await client.query(`ALTER SCHEMA pgboss RENAME TO ${OLD_SCHEMA}`);
  });
}

/** Moves the jobs of `queues` that pg-boss 10 had not finished (waiting, due for a retry, or running) and drops its schema. */
export async function movePgBoss10Jobs(connectionString: string, boss: PgBoss, queues: string[]): Promise<number> {
  return inLockedTransaction(connectionString, async (client) => {
    const { rows: present } = await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [OLD_SCHEMA]);
    if (present.length === 0) return 0;
    const { rows } = await client.query<{ id: string; name: string; data: object | null; priority: number; startAfter: Date; singletonKey: string | null }>(
      `SELECT id, name, data, priority, start_after AS "startAfter", singleton_key AS "singletonKey"
         FROM ${OLD_SCHEMA}.job WHERE state IN ('created', 'retry', 'active') AND name = ANY($1::text[])`,
      [queues],
    );
    // A job that was running when the old workers stopped runs again from the start: every job is safe to rerun (D11).
    const db = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) };
    for (const name of new Set(rows.map((row) => row.name))) {
      const jobs = rows.filter((row) => row.name === name).map(({ id, data, priority, startAfter, singletonKey }) => ({ id, data: data ?? {}, priority, startAfter, singletonKey: singletonKey ?? undefined }));
      await boss.insert(name, jobs, { db });
    }
    await client.query(`DROP SCHEMA ${OLD_SCHEMA} CASCADE`);
    return rows.length;
  });
}

async function inLockedTransaction<T>(connectionString: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT ${LOCK}`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
