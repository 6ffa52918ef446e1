import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';
import type { PageRequest, VersionedPage } from './pagination';

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
 * How an account's list is read (D3, D23): a table and alias, the answer's columns and the joins bringing them for a
 * page's ids (`page.id`), and the sort key, unique thanks to its last column (the id).
 */
export interface ListShape {
  /** Names the prepared statements: one per combination of filters. */
  name: string;
  from: string;
  alias: string;
  columns: string;
  /** The version of a row's answer, as its single read takes it (D23). */
  version: string;
  joins: string;
  key: string[];
}

/** An account's list: newest first, or oldest change first when `updatedSince` is given (D23). */
export interface AccountListFilter {
  status?: string;
  updatedSince?: Date;
}

const statements = new Map<string, PreparedRead>();

/**
 * The one statement answering a page of an account's list and its total. Each combination of filters has its own
 * statement, so no plan is made for `($2 IS NULL OR status = $2)` and every plan fits the index of its filters
 * (docs/architecture.md, "Lists at scale"). The total is counted first; a page in the second half of the list is
 * read from the other end and put back in order, so the last page of 20,000 rows reads 15 index entries, not 20,000.
 */
function accountPageRead(shape: ListShape, filter: AccountListFilter): { statement: PreparedRead; params: unknown[] } {
  const { alias } = shape;
  const params: unknown[] = [];
  const where = [`${alias}.account_id = $1`];
  if (filter.status !== undefined) where.push(`${alias}.status = $${params.push(filter.status) + 1}`);
  const since = filter.updatedSince !== undefined;
  if (since) where.push(`${alias}.updated_at >= $${params.push(filter.updatedSince) + 1}`);
  const name = `${shape.name}${filter.status !== undefined ? '_status' : ''}${since ? '_since' : ''}`;
  let statement = statements.get(name);
  if (!statement) {
    const [limit, offset] = [`$${params.length + 2}`, `$${params.length + 3}`];
    const key = since ? [`${alias}.updated_at`, `${alias}.id`] : shape.key;
    const order = (direction: string) => key.map((column) => `${column} ${direction}`).join(', ');
    const [forward, backward] = since ? ['ASC', 'DESC'] : ['DESC', 'ASC'];
    const ids = (half: string, direction: string, take: string, skip: string) =>
      `(SELECT ${alias}.id FROM ${shape.from} WHERE ${where.join(' AND ')} AND ${half} ORDER BY ${order(direction)} LIMIT ${take} OFFSET ${skip})`;
    statement = {
      name,
      sql: `SELECT n.total, ${shape.columns}, ${shape.version} AS version FROM (SELECT count(*)::int AS total FROM ${shape.from} WHERE ${where.join(' AND ')}) n
  LEFT JOIN LATERAL (${ids(`${offset} * 2 < n.total`, forward, limit, offset)}
    UNION ALL ${ids(`${offset} * 2 >= n.total`, backward, `greatest(least(${limit}, n.total - ${offset}), 0)`, `greatest(n.total - ${offset} - ${limit}, 0)`)}) page ON true
  ${shape.joins} ORDER BY ${order(forward)}`,
    };
    statements.set(name, statement);
  }
  return { statement, params };
}

/**
 * A page of an account's list and the total it is a page of, in one statement (accountPageRead), with the page's
 * version: its total and the versions of its rows, so that a conditional request is answered 304 from this one
 * statement, nothing serialized and no link signed (D23).
 */
export async function readAccountPage<T>(
  em: EntityManager,
  shape: ListShape,
  accountId: string,
  filter: AccountListFilter,
  request: PageRequest,
  map: (row: Row, date: DateOf) => T,
): Promise<VersionedPage<T>> {
  const { statement, params } = accountPageRead(shape, filter);
  const { rows, date } = await readRows(em, statement, [accountId, ...params, request.perPage, (request.page - 1) * request.perPage]);
  const found = rows.filter((row) => row.id !== null);
  const total = rows[0]!.total as number;
  const version = createHash('sha256').update(`${total}/${found.map((row) => row.version).join(',')}`).digest('base64url');
  return { items: found.map((row) => map(row, date)), total, ...request, version };
}

export type DateOf = (value: unknown) => Date | null;
