import type { EntityManager } from '@mikro-orm/core';
import type { PgBoss } from 'pg-boss';
import { Client } from 'pg';
import { runSql } from '../db/orm-driver';

/**
 * Everything that reads or writes pg-boss's own tables and schema, rather than calling its API: its jobs written
 * through the caller's transaction, the unfinished jobs read from `pgboss.job`, and the upgrade from pg-boss 10's
 * tables. A pg-boss upgrade that changes them changes this file (docs/architecture.md, "How a job flows").
 */

/** The schema pg-boss keeps its tables in, ignored by the migrations' diff (`src/db/orm-config.ts`). */
export const PG_BOSS_SCHEMA = 'pgboss';

/**
 * The `db` pg-boss writes a job through, so that the job is part of `em`'s transaction. pg-boss writes with `$1..$n`
 * placeholders; the ORM's connection binds `?`. Each `$n` becomes a `?` with its value, in order of appearance, so
 * repeated and out-of-order placeholders bind correctly.
 */
export function transactionExecutor(em: EntityManager) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const bindings: unknown[] = [];
      const sql = text.replace(/\$(\d+)/g, (_match, index: string) => {
        bindings.push(values[Number(index) - 1]);
        return '?';
      });
      return { rows: await runSql(em, sql, bindings) };
    },
  };
}

/** Of `values`, those that a job of `name` not yet finished (waiting, due for a retry, or running) has as `data[key]`. */
export async function unfinishedJobValues(
  boss: PgBoss,
  name: string,
  key: string,
  values: string[],
): Promise<Set<string>> {
  const { rows }: { rows: { value: string }[] } = await boss
    .getDb()
    .executeSql(
      `SELECT DISTINCT data->>$2 AS value FROM ${PG_BOSS_SCHEMA}.job WHERE name = $1 AND state IN ('created', 'retry', 'active') AND data->>$2 = ANY($3::text[])`,
      [name, key, values],
    );
  return new Set(rows.map((row) => row.value));
}

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
    const { rows: installed } = await client.query(
      `SELECT 1 FROM pg_class WHERE oid = to_regclass('${PG_BOSS_SCHEMA}.version')`,
    );
    if (installed.length === 0) return;
    const { rows } = await client.query<{ version: number }>(
      `SELECT max(version) AS version FROM ${PG_BOSS_SCHEMA}.version`,
    );
    if (rows[0].version === PG_BOSS_10_SCHEMA_VERSION)
      await client.query(`ALTER SCHEMA ${PG_BOSS_SCHEMA} RENAME TO ${OLD_SCHEMA}`);
  });
}

/** Moves the jobs of `queues` that pg-boss 10 had not finished (waiting, due for a retry, or running) and drops its schema. */
export async function movePgBoss10Jobs(connectionString: string, boss: PgBoss, queues: string[]): Promise<number> {
  return inLockedTransaction(connectionString, async (client) => {
    const { rows: present } = await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [OLD_SCHEMA]);
    if (present.length === 0) return 0;
    const { rows } = await client.query<{
      id: string;
      name: string;
      data: object | null;
      priority: number;
      startAfter: Date;
      singletonKey: string | null;
    }>(
      `SELECT id, name, data, priority, start_after AS "startAfter", singleton_key AS "singletonKey"
         FROM ${OLD_SCHEMA}.job WHERE state IN ('created', 'retry', 'active') AND name = ANY($1::text[])`,
      [queues],
    );
    // A job that was running when the old workers stopped runs again from the start: every job is safe to rerun (D11).
    const db = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) };
    for (const name of new Set(rows.map((row) => row.name))) {
      const jobs = rows
        .filter((row) => row.name === name)
        .map(({ id, data, priority, startAfter, singletonKey }) => ({
          id,
          data: data ?? {},
          priority,
          startAfter,
          singletonKey: singletonKey ?? undefined,
        }));
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
