import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';
import type { Page, PageRequest } from './pagination';

export type Row = Record<string, unknown>;

/**
 * A statement of the polling path (D23), run by name: PostgreSQL parses and plans it once per connection and then
 * only executes it. On these paths planning cost more than running the statement. Its SQL must stay the same for
 * its name, and it names its columns (no `*`), so a migration adding a column never changes a prepared result.
 */
export interface PreparedRead {
  name: string;
  /** With `$1`, `$2`, ... placeholders, as PostgreSQL reads them. */
  sql: string;
}

/** What MikroORM's connection does for every statement it runs: log it (tests count them there) and time it. */
interface OrmConnection {
  getKnex(): Knex;
  executeQuery<T>(query: string, run: () => Promise<T>, context: Record<string, unknown> & { query: string; params: unknown[] }): Promise<T>;
}

/** The driver's own client, as the ORM's pool lends it out. */
interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
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
export async function readRows(em: EntityManager, statement: PreparedRead, params: unknown[]): Promise<{ rows: Row[]; date: DateOf }> {
  // executeQuery is protected in MikroORM's typings; it is the one door every statement of the ORM goes through.
  const connection = em.getConnection() as unknown as OrmConnection;
  const pool = (em.getTransactionContext<Knex.Transaction>() ?? connection.getKnex()).client as unknown as PoolClient;
  const run = async () => {
    const client = await pool.acquireConnection();
    try {
      return await client.query({ name: statement.name, text: statement.sql, values: params });
    } finally {
      await pool.releaseConnection(client);
    }
  };
  const { rows } = await connection.executeQuery(statement.sql, run, { ...em.getLoggerContext(), query: statement.sql, params });
  const platform = em.getPlatform();
  return { rows, date: (value) => (value === null || value === undefined ? null : (platform.parseDate(value as string) as Date)) };
}

/** As `readRows`, for a statement that finds one row or none. */
export async function readRow(em: EntityManager, statement: PreparedRead, params: unknown[]): Promise<{ row: Row | undefined; date: DateOf }> {
  const { rows, date } = await readRows(em, statement, params);
  return { row: rows[0], date };
}

/**
 * A page of rows and the total it is a page of, both read at once: `page` takes the filter's parameters then LIMIT and
 * OFFSET, `count` the filter's alone and answers `total`.
 */
export async function readPage<T>(
  em: EntityManager,
  statements: { page: PreparedRead; count: PreparedRead },
  filter: unknown[],
  request: PageRequest,
  map: (row: Row, date: DateOf) => T,
): Promise<Page<T>> {
  const [{ rows, date }, { row }] = await Promise.all([
    readRows(em, statements.page, [...filter, request.perPage, (request.page - 1) * request.perPage]),
    readRow(em, statements.count, filter),
  ]);
  return { items: rows.map((found) => map(found, date)), total: row!.total as number, ...request };
}

export type DateOf = (value: unknown) => Date | null;
