import type { EntityManager } from '@mikro-orm/core';
import type { Page, PageRequest } from './pagination';
import { runSql } from '../../db/orm-driver';

/** A staff desk's list over one table: the table under its alias, and its sort, tie-break last. */
export interface DeskQueue {
  table: string;
  alias: string;
  sort: readonly (readonly [column: string, direction: string])[];
}

/** The statements of one request: the page's ids (`?` limit and offset last) and, unless a search answers it, the total. */
export interface QueueStatements {
  page: string;
  total?: string;
  params: unknown[];
}

/**
 * The filters of one request, only those given, each written into the SQL with its values, so that each request is
 * planned for its own values (docs/architecture.md, "Lists at scale").
 */
export class QueueFilter {
  private readonly conditions: string[] = [];
  private readonly params: unknown[] = [];
  private searched = false;

  constructor(private readonly queue: DeskQueue) {}

  where(sql: string, ...values: unknown[]): this {
    this.conditions.push(sql);
    this.params.push(...values);
    return this;
  }

  /**
   * A search's condition: its hits are found once, through their indexes, then counted and sorted (see `statements`).
   */
  search(sql: string, ...values: unknown[]): this {
    this.searched = true;
    return this.where(sql, ...values);
  }

  /** The page and the total, both on the table alone, with no join; a search's in one statement. */
  statements(): QueueStatements {
    const { table, alias, sort } = this.queue;
    const from = `FROM ${table} ${alias}${this.conditions.length ? ` WHERE ${this.conditions.join(' AND ')}` : ''}`;
    const order = (prefix: string) => sort.map(([column, direction]) => `${prefix}${column} ${direction}`).join(', ');
    if (this.searched) {
      // The hits found once through the trigram indexes, then counted and sorted: left to itself, the planner walks
      // the sort's index for the first rows that match whenever it guesses them many (its guess for a pattern inside
      // a text is often a hundred times off), and reads most of the table for a rare one; and a second statement
      // counting them would find them all again. The page keeps its order outside its subquery (an outer query keeps
      // no inner order by itself).
      const keys = ['id', ...sort.map(([column]) => column).filter((column) => column !== 'id')];
      return {
        page: `WITH hits AS MATERIALIZED (SELECT ${keys.map((column) => `${alias}.${column}`).join(', ')} ${from})
SELECT (SELECT count(*)::int FROM hits) AS total, page.id FROM (SELECT 1) one LEFT JOIN LATERAL (
  SELECT ${keys.join(', ')} FROM hits ORDER BY ${order('')} LIMIT ? OFFSET ?) page ON true ORDER BY ${order('page.')}`,
        params: this.params,
      };
    }
    return {
      page: `SELECT ${alias}.id ${from} ORDER BY ${order('')} LIMIT ? OFFSET ?`,
      total: `SELECT count(*)::int AS total ${from}`,
      params: this.params,
    };
  }
}

/**
 * A desk's page in three statements whatever the filters: the page's ids, the total (one statement for a search),
 * then `rowsOf` those ids, in their order, with what the desk shows beside them.
 */
export async function readQueuePage<T>(
  em: EntityManager,
  { page, total, params }: QueueStatements,
  request: PageRequest,
  rowsOf: (ids: string[]) => Promise<T[]>,
): Promise<Page<T>> {
  const window = [request.perPage, (request.page - 1) * request.perPage];
  const [rows, [counted]] = await Promise.all([
    runSql<{ id: string | null; total?: number }>(em, page, [...params, ...window]),
    total ? runSql<{ total: number }>(em, total, params) : [undefined],
  ]);
  const ids = rows.flatMap((row) => (row.id === null ? [] : [row.id]));
  const items = ids.length ? await rowsOf(ids) : [];
  return { items, total: counted?.total ?? rows[0]?.total ?? 0, ...request };
}

/**
 * `text` in the number, the reference or the account's name of the rows under `alias`, as typed (LIKE's wildcards
 * match themselves): trigram indexes on the number and the reference, and the accounts whose name matches (trigram
 * index on accounts) looked up once, their rows by `account_id`. Its cost grows with its hits.
 */
export function numberReferenceOrFirm(alias: string, text: string): [sql: string, ...values: string[]] {
  const contains = containsPattern(text);
  return [
    `(${alias}.number ILIKE ? OR ${alias}.reference ILIKE ? OR ${alias}.account_id = ANY (ARRAY(SELECT a.id FROM accounts a WHERE a.name ILIKE ?)))`,
    contains,
    contains,
    contains,
  ];
}

/** An ILIKE pattern matching `text` anywhere, its own `%`, `_` and backslashes taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
