import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { PageRequest, VersionedPage } from './pagination';
import { runPrepared, type DateOf, type PreparedStatement, type SqlRow } from '../../db/orm-driver';

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
  /**
   * Tables keeping the list's size by account and status, added up instead of counting the rows: a total read in
   * the same snapshot as the page, as exact as a count (order-counts.ts). Without `updatedSince` only.
   */
  counts?: { table: string; changes: string };
}

/** An account's list: newest first, or oldest change first when `updatedSince` is given (D23). */
export interface AccountListFilter {
  status?: string;
  updatedSince?: Date;
}

const statements = new Map<string, PreparedStatement>();

/**
 * The one statement answering a page of an account's list and its total, with `$1` the account, then the filters
 * given, then the page's limit and offset. Each combination of filters has its own statement, so no plan is made for
 * `($2 IS NULL OR status = $2)` and every plan fits the index of its filters (docs/architecture.md, "Lists at
 * scale"). The total comes first, added up from the list's counts where it has some, counted otherwise; a page in the
 * second half of the list is read from the other end and put back in order, so the last page of 20,000 rows reads 15
 * index entries, not 20,000.
 */
export function accountPageStatement(
  shape: ListShape,
  filter: AccountListFilter,
): { statement: PreparedStatement; params: unknown[] } {
  const { alias } = shape;
  const params: unknown[] = [];
  // The filters as conditions on a table alias: the list's own, or its counts' (`k`).
  const conditions: ((on: string) => string)[] = [(on) => `${on}.account_id = $1`];
  const condition = (column: string, operator: string, value: unknown) => {
    const n = params.push(value) + 1;
    conditions.push((on) => `${on}.${column} ${operator} $${n}`);
  };
  if (filter.status !== undefined) condition('status', '=', filter.status);
  const since = filter.updatedSince !== undefined;
  if (since) condition('updated_at', '>=', filter.updatedSince);
  const where = (on: string) => conditions.map((written) => written(on)).join(' AND ');
  const name = `${shape.name}${filter.status !== undefined ? '_status' : ''}${since ? '_since' : ''}`;
  let statement = statements.get(name);
  if (!statement) {
    const [limit, offset] = [`$${params.length + 2}`, `$${params.length + 3}`];
    const key = since ? [`${alias}.updated_at`, `${alias}.id`] : shape.key;
    const order = (direction: string) => key.map((column) => `${column} ${direction}`).join(', ');
    const [forward, backward] = since ? ['ASC', 'DESC'] : ['DESC', 'ASC'];
    const ids = (half: string, direction: string, take: string, skip: string) =>
      `(SELECT ${alias}.id FROM ${shape.from} WHERE ${where(alias)} AND ${half} ORDER BY ${order(direction)} LIMIT ${take} OFFSET ${skip})`;
    const counts = shape.counts && !since ? shape.counts : undefined;
    const total = counts
      ? `SELECT coalesce(sum(counted.n), 0)::int AS total FROM (SELECT n FROM ${counts.table} k WHERE ${where('k')}
    UNION ALL SELECT delta FROM ${counts.changes} k WHERE ${where('k')}) counted`
      : `SELECT count(*)::int AS total FROM ${shape.from} WHERE ${where(alias)}`;
    statement = {
      name,
      sql: `SELECT n.total, ${shape.columns}, ${shape.version} AS version FROM (${total}) n
  LEFT JOIN LATERAL (${ids(`${offset} * 2 < n.total`, forward, limit, offset)}
    UNION ALL ${ids(`${offset} * 2 >= n.total`, backward, `greatest(least(${limit}, n.total - ${offset}), 0)`, `greatest(n.total - ${offset} - ${limit}, 0)`)}) page ON true
  ${shape.joins} ORDER BY ${order(forward)}`,
    };
    statements.set(name, statement);
  }
  return { statement, params };
}

/**
 * A page of an account's list and the total it is a page of, in one statement (accountPageStatement), with the
 * page's version: its total and the versions of its rows, so that a conditional request is answered 304 from this
 * one statement, nothing serialized and no link signed (D23).
 */
export async function readAccountPage<T>(
  em: EntityManager,
  shape: ListShape,
  accountId: string,
  filter: AccountListFilter,
  request: PageRequest,
  map: (row: SqlRow, date: DateOf) => T,
): Promise<VersionedPage<T>> {
  const { statement, params } = accountPageStatement(shape, filter);
  const { rows, date } = await runPrepared(em, statement, [
    accountId,
    ...params,
    request.perPage,
    (request.page - 1) * request.perPage,
  ]);
  const found = rows.filter((row) => row.id !== null);
  const total = rows[0].total as number;
  const version = createHash('sha256')
    .update(`${total}/${found.map((row) => row.version).join(',')}`)
    .digest('base64url');
  return { items: found.map((row) => map(row, date)), total, ...request, version };
}
