import type { EntityManager } from '@mikro-orm/core';
import { Order, OrderStatus } from '../../domain/orders/order.entity';
import { FINISHED_ORDER_STATUSES } from '../../domain/orders/order.states';
import type { Page, PageRequest } from '../../domain/shared/pagination';
import { runSql } from '../orm-driver';

export interface StaffOrderFilter {
  status?: OrderStatus;
  accountId?: string;
  assigneeId?: string;
  overdue: boolean;
  search?: string;
}

/**
 * No longer worked on (the statuses the transition table has no way out of): never overdue. Written into the SQL as
 * literals, so the partial index of open work (`orders_open_due`) matches it.
 */
const FINISHED = FINISHED_ORDER_STATUSES;

const SORT = 'due_at ASC NULLS LAST, created_at ASC, id ASC';
/** The same order, of a search's page as it leaves its subquery (an outer query keeps no inner order by itself). */
const PAGE_SORT = 'page.due_at ASC NULLS LAST, page.created_at ASC, page.id ASC';

/**
 * The statements on `orders` alone for `filter`: the page's ids (`?` limit and offset last) and the total. A search
 * has no `total`: its one statement finds the hits once and answers both, the total on every row (and on a row of
 * its own, with no id, when the page is empty).
 */
export function staffOrderQueueStatements(filter: StaffOrderFilter): {
  page: string;
  total?: string;
  params: unknown[];
} {
  const where: string[] = [];
  const params: unknown[] = [];
  const condition = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (filter.status) condition('o.status = ?', filter.status);
  if (filter.accountId) condition('o.account_id = ?', filter.accountId);
  if (filter.assigneeId) condition('o.assignee_id = ?', filter.assigneeId);
  if (filter.overdue) {
    condition('o.due_at < now()');
    if (!filter.status) condition(`o.status NOT IN (${FINISHED.map((status) => `'${status}'`).join(', ')})`);
  }
  if (filter.search) {
    const contains = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    condition(
      '(o.number ILIKE ? OR o.reference ILIKE ? OR o.account_id = ANY (ARRAY(SELECT a.id FROM accounts a WHERE a.name ILIKE ?)))',
      contains,
      contains,
      contains,
    );
  }
  const from = `FROM orders o${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
  if (filter.search) return { page: searched(from), params };
  return {
    page: `SELECT o.id ${from} ORDER BY ${SORT} LIMIT ? OFFSET ?`,
    total: `SELECT count(*)::int AS total ${from}`,
    params,
  };
}

/**
 * The desk's queue (docs/decisions.md G4, G5): every account's orders, soonest due first, in three statements
 * whatever the filters: the page's ids, the total (both on `orders` alone, with no join; one statement for a
 * search), then the page's orders with their accounts and assignees. Only the filters given are written into the SQL, so each request is planned
 * for its own values (docs/architecture.md, "Lists at scale"):
 * - overdue: `due_at < now()` and not finished, served by the partial index of open work;
 * - search: trigram indexes on the number and the reference, and the accounts whose name matches (trigram index
 *   on accounts) looked up once, their orders by `account_id`; its cost grows with its hits (a firm's name: a few
 *   hundred; a surname shared by 600 firms: 60,000 and a tenth of a second).
 */
export async function readStaffOrderPage(
  em: EntityManager,
  filter: StaffOrderFilter,
  request: PageRequest,
): Promise<Page<Order>> {
  const { page, total, params } = staffOrderQueueStatements(filter);
  const window = [request.perPage, (request.page - 1) * request.perPage];
  const [rows, [counted]] = await Promise.all([
    runSql<{ id: string | null; total?: number }>(em, page, [...params, ...window]),
    total ? runSql<{ total: number }>(em, total, params) : [undefined],
  ]);
  const ids = rows.filter((row): row is { id: string; total?: number } => row.id !== null);
  const orders = ids.length
    ? await em.find(Order, { id: { $in: ids.map((row) => row.id) } }, { populate: ['account', 'assignee'] })
    : [];
  const byId = new Map(orders.map((order) => [order.id, order]));
  const found = counted?.total ?? rows[0]?.total ?? 0;
  return { items: ids.map((row) => byId.get(row.id)!).filter(Boolean), total: found, ...request };
}

/**
 * A search's hits, found once through the trigram indexes, then counted and sorted: left to itself, the planner walks
 * the due-date index for the first rows that match, not knowing how few accounts match the name, and reads most of
 * the table; and a second statement counting them would find them all again.
 */
const searched = (from: string) =>
  `WITH hits AS MATERIALIZED (SELECT o.id, o.due_at, o.created_at ${from})
SELECT (SELECT count(*)::int FROM hits) AS total, page.id FROM (SELECT 1) one LEFT JOIN LATERAL (
  SELECT id, due_at, created_at FROM hits ORDER BY ${SORT} LIMIT ? OFFSET ?) page ON true ORDER BY ${PAGE_SORT}`;
