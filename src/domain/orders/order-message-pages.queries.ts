import type { EntityManager } from '@mikro-orm/core';
import { OrderMessage, type MessageAuthorKind } from './order-message.entity';
import type { Page, PageRequest } from '../shared/pagination';
import { runPrepared, type PreparedStatement } from '../../db/orm-driver';

/** Which orders' messages a reader may read: those of an account, or assigned to a staff member; null for any. */
export interface MessageReader {
  accountId: string | null;
  assigneeId: string | null;
}

/**
 * `$1` the orders, `$2`/`$3` the account or assignee they must have (null: any), `$4`/`$5` limit and offset: each
 * order's total and its page, newest first, each page read on `order_messages_order_created`. An order with no
 * message on the page still answers one row (its total) with a null message.
 */
const PAGES_OF_ORDERS: PreparedStatement = {
  name: 'order_message_pages',
  sql: `SELECT o.id AS of_order, counted.total, m.id, m.author_kind, m.author_name, m.text, m.created_at
  FROM orders o
  CROSS JOIN LATERAL (SELECT count(*)::int AS total FROM order_messages c WHERE c.order_id = o.id) counted
  LEFT JOIN LATERAL (SELECT p.id, p.author_kind, p.author_name, p.text, p.created_at FROM order_messages p
                      WHERE p.order_id = o.id ORDER BY p.created_at DESC, p.id DESC LIMIT $4 OFFSET $5) m ON true
 WHERE o.id = ANY($1::uuid[]) AND ($2::uuid IS NULL OR o.account_id = $2) AND ($3::uuid IS NULL OR o.assignee_id = $3)
 ORDER BY o.id, m.created_at DESC, m.id DESC`,
};

/**
 * The same page of the conversation of each of `orderIds` (D30), in their order, in one statement: a page of orders
 * costs one statement for their messages, not one per order. An order `reader` may not read answers an empty page.
 */
export async function readMessagePages(
  em: EntityManager,
  orderIds: readonly string[],
  reader: MessageReader,
  request: PageRequest,
): Promise<Page<OrderMessage>[]> {
  const { rows, date } = await runPrepared(em, PAGES_OF_ORDERS, [
    [...orderIds],
    reader.accountId,
    reader.assigneeId,
    request.perPage,
    (request.page - 1) * request.perPage,
  ]);
  return orderIds.map((orderId) => {
    const own = rows.filter((row) => row.of_order === orderId);
    const items = own
      .filter((row) => row.id !== null)
      .map((row) =>
        Object.assign(new OrderMessage(), {
          id: row.id as string,
          authorKind: row.author_kind as MessageAuthorKind,
          authorName: row.author_name as string,
          text: row.text as string,
          createdAt: date(row.created_at)!,
        }),
      );
    return { items, total: (own[0]?.total as number | undefined) ?? 0, ...request };
  });
}
