import type { EntityManager } from '@mikro-orm/core';
import type { Knex, MikroORM, SqlEntityManager } from '@mikro-orm/postgresql';

/**
 * Every use of MikroORM's connection, its protected statement door and knex's pool, in one file: statements
 * written by hand (`src/db/queries/`), the migrations' transaction, readiness and the pool's metrics reach the
 * ORM here, so an upgrade of MikroORM (or its move away from knex) changes this file only
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

/** What MikroORM's connection does for every statement it runs: log it (tests count them there) and time it. */
interface OrmConnection {
  getKnex(): Knex;
  executeQuery<T>(
    query: string,
    run: () => Promise<T>,
    context: Record<string, unknown> & { query: string; params: unknown[] },
  ): Promise<T>;
}

/** The driver's own client, as the ORM's pool lends it out. */
interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: SqlRow[] }>;
}

interface PoolClient {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<void>;
}

/**
 * One prepared statement on a connection of the ORM's own pool (the caller's transaction's if it has one), handed
 * straight to the driver: the query builder has nothing to build here, and costs as much as the statement itself.
 * Logged through the ORM like any other statement, with the EntityManager's logger context. Rows come back as the
 * driver gives them, with a date parser that turns timestamps into the same `Date`s as entity hydration does.
 */
export async function runPrepared(
  em: EntityManager,
  statement: PreparedStatement,
  params: readonly unknown[],
): Promise<{ rows: SqlRow[]; date: DateOf }> {
  // executeQuery is protected in MikroORM's typings; it is the one door every statement of the ORM goes through.
  const connection = em.getConnection() as unknown as OrmConnection;
  const pool = (em.getTransactionContext<Knex.Transaction>() ?? connection.getKnex()).client as unknown as PoolClient;
  const values = [...params];
  const run = async () => {
    const client = await pool.acquireConnection();
    try {
      return await client.query({ name: statement.name, text: statement.sql, values });
    } finally {
      await pool.releaseConnection(client);
    }
  };
  const { rows } = await connection.executeQuery(statement.sql, run, {
    ...em.getLoggerContext(),
    query: statement.sql,
    params: values,
  });
  const platform = em.getPlatform();
  return {
    rows,
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
