import type { EntityManager } from '@mikro-orm/core';
import type { Knex, MikroORM, SqlEntityManager } from '@mikro-orm/postgresql';

/**
 * Every use of MikroORM's connection and of its knex, in one file, through their public API: the areas' statements
 * written by hand (`src/domain/<area>/*.queries.ts`), the migrations' transaction, readiness and the pool's metrics
 * reach the ORM here, so an upgrade of MikroORM (MikroORM 7 moves from knex to kysely) changes this file only
 * (docs/architecture.md, "Layers").
 */

export type SqlRow = Record<string, unknown>;

/** Turns a timestamp as the driver returned it into the same `Date` entity hydration makes. */
export type DateOf = (value: unknown) => Date | null;

/**
 * A statement with `?` placeholders, in the transaction `em` is part of (none: a connection of its own), logged with
 * `em`'s logger context, so a request's statements are counted as its own. MikroORM inlines the values, an array as
 * a list (`in (?)`).
 */
export async function runSql<T extends object = SqlRow>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[] = [],
): Promise<T[]> {
  return (em as SqlEntityManager)
    .getConnection()
    .execute<T[]>(sql, [...params], 'all', em.getTransactionContext(), em.getLoggerContext());
}

/**
 * A statement of the polling path (D23), run by name: PostgreSQL parses and plans it once per connection and then
 * only executes it. On these paths planning cost more than running the statement. Its SQL must stay the same for
 * its name, and it names its columns (no `*`), so a migration adding a column never changes a prepared result.
 */
export interface PreparedStatement {
  name: string;
  /** With `$1`, `$2`, ... placeholders, as PostgreSQL reads them. */
  sql: string;
}

/**
 * One prepared statement, in the caller's transaction if it has one, through MikroORM's knex and its pool: a raw
 * statement whose pg options name it (knex's `options()`, handed to the driver as they are) and carry its values, so
 * PostgreSQL prepares it once per connection. The query builder has nothing to build here, and would cost as much as
 * the statement itself. Logged through the ORM's logger like the ORM's own statements, with the EntityManager's
 * logger context (tests count a request's statements there). Rows come back as the driver gives them, with a date
 * parser that turns timestamps into the same `Date`s as entity hydration does.
 */
export async function runPrepared(
  em: EntityManager,
  statement: PreparedStatement,
  params: readonly unknown[],
): Promise<{ rows: SqlRow[]; date: DateOf }> {
  // knex numbers `?` placeholders itself, which would renumber a statement written with PostgreSQL's `$n`.
  if (statement.sql.includes('?')) throw new Error(`prepared statement ${statement.name} holds a "?"`);
  const values = [...params];
  const raw = (em as SqlEntityManager).getKnex().raw(statement.sql).options({ name: statement.name, values });
  const transaction = em.getTransactionContext<Knex.Transaction>();
  if (transaction) raw.transacting(transaction);
  const logged = { ...em.getLoggerContext(), query: statement.sql, params: values, level: 'info' as const };
  const started = Date.now();
  let result: { rows: SqlRow[] };
  try {
    // A raw statement answers what the driver returned: pg's result, rows and all.
    result = (await raw) as { rows: SqlRow[] };
  } catch (error) {
    em.config.getLogger().logQuery({ ...logged, took: Date.now() - started, level: 'error' });
    throw error;
  }
  em.config.getLogger().logQuery({ ...logged, took: Date.now() - started, results: result.rows.length });
  const platform = em.getPlatform();
  return {
    rows: result.rows,
    date: (value) => (value === null || value === undefined ? null : platform.parseDate(value as string)),
  };
}

/**
 * Runs `work` in one transaction of the ORM's connection, outside any EntityManager: the migrator takes the
 * transaction itself, and `sql` runs a statement in it.
 */
export function inConnectionTransaction<T>(
  orm: MikroORM,
  work: (transaction: Knex.Transaction, sql: (statement: string) => Promise<unknown>) => Promise<T>,
): Promise<T> {
  const connection = orm.em.getConnection();
  return connection.transactional((transaction) =>
    work(transaction, (statement) => connection.execute(statement, [], 'run', transaction)),
  );
}

/** The ORM's connection pool (knex's tarn pool), absent until the first connection is asked for. */
interface Pool {
  numUsed(): number;
  numPendingAcquires(): number;
}

/** How busy the ORM's pool is now: connections lent out, and callers waiting for one. */
export function poolUse(orm: MikroORM): { inUse: number; waiting: number } {
  const pool = (orm.em.getConnection().getKnex().client as { pool?: Pool }).pool;
  return { inUse: pool?.numUsed() ?? 0, waiting: pool?.numPendingAcquires() ?? 0 };
}
