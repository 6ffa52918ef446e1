import type { EntityManager } from '@mikro-orm/core';
import { Account } from '../identity/account.entity';
import { StaffUser } from '../identity/staff-user.entity';
import { Payment } from '../payments/payment.entity';
import type { StaffOrderView } from './order-read';
import type { OrderStatus } from './order.entity';
import { StaffOrderQueue } from './order-read';
import { FINISHED_ORDER_STATUSES } from './order.states';
import type { Page, PageRequest } from '../shared/pagination';
import { runPrepared, type PreparedStatement } from '../../db/orm-driver';
import {
  numberReferenceOrFirm,
  QueueFilter,
  readQueuePage,
  type DeskQueue,
  type QueueStatements,
} from '../shared/desk-queue.queries';
import { prefixedColumns, prefixedRow } from '../../db/entity-columns';
import { ORDER_VIEW_COLUMNS, ORDER_VIEW_JOINS, orderViewOf } from './polled-orders.queries';

export interface StaffOrderFilter {
  status?: OrderStatus;
  queue?: StaffOrderQueue;
  accountId?: string;
  assigneeId?: string;
  overdue: boolean;
  search?: string;
}

/** Soonest due first, undated last: served by `orders_due`, `orders_status_due` and `orders_open_due`. */
const ORDER_QUEUE: DeskQueue = {
  table: 'orders',
  alias: 'o',
  sort: [
    ['due_at', 'ASC NULLS LAST'],
    ['created_at', 'ASC'],
    ['id', 'ASC'],
  ],
};

/**
 * No longer worked on (the statuses the transition table has no way out of): never overdue. Written into the SQL as
 * literals, so the partial index of open work (`orders_open_due`) matches it.
 */
const FINISHED = FINISHED_ORDER_STATUSES.map((status) => `'${status}'`).join(', ');

/** The statements on `orders` alone for `filter` (see `QueueFilter.statements`). */
export function staffOrderQueueStatements(filter: StaffOrderFilter): QueueStatements {
  const query = new QueueFilter(ORDER_QUEUE);
  if (filter.status) query.where('o.status = ?', filter.status);
  // Served by the partial index `orders_awaiting_translator_due` (D30).
  if (filter.queue === StaffOrderQueue.NEEDS_TRANSLATION)
    query.where(`o.awaiting_translator AND o.status = 'processing'`);
  if (filter.accountId) query.where('o.account_id = ?', filter.accountId);
  if (filter.assigneeId) query.where('o.assignee_id = ?', filter.assigneeId);
  if (filter.overdue) {
    query.where('o.due_at < now()');
    if (!filter.status) query.where(`o.status NOT IN (${FINISHED})`);
  }
  if (filter.search) query.search(...numberReferenceOrFirm('o', filter.search));
  return query.statements();
}

/**
 * The desk's queue (docs/decisions.md G4, G5): every account's orders, soonest due first, in three statements
 * whatever the filters, with their accounts and assignees:
 * - overdue: `due_at < now()` and not finished, served by the partial index of open work;
 * - search: see `numberReferenceOrFirm`; a firm's name finds a few hundred orders, a surname shared by 600 firms 60,000
 *   and takes a tenth of a second.
 */
export function readStaffOrderPage(
  em: EntityManager,
  filter: StaffOrderFilter,
  request: PageRequest,
): Promise<Page<StaffOrderView>> {
  return readQueuePage(em, staffOrderQueueStatements(filter), request, (ids) => readStaffOrderRows(em, ids));
}

/** How the statement names its payment's, account's and assignee's columns. */
const [PAYMENT, ACCOUNT, ASSIGNEE] = ['payment.', 'account.', 'assignee.'];

let rowsStatement: PreparedStatement | undefined;

/**
 * `$1` the page's ids: each order as its answer shows it (as the partner lists read it: payment, certificate, files),
 * with its account's and its assignee's rows, in the page's order, in one prepared statement. Mapped, not hydrated:
 * the ORM took 3 to 5 ms of CPU to hydrate a page of 15 orders, their payments, accounts and assignees, more than
 * the rest of the request (docs/architecture.md, "Lists at scale").
 */
function staffOrderRowsStatement(em: EntityManager): PreparedStatement {
  return (rowsStatement ??= {
    name: 'staff_order_rows',
    sql: `SELECT ${ORDER_VIEW_COLUMNS}, ${[
      ...prefixedColumns(em, Payment, 'p', PAYMENT),
      ...prefixedColumns(em, Account, 'ac', ACCOUNT),
      ...prefixedColumns(em, StaffUser, 'su', ASSIGNEE),
    ].join(', ')}
  FROM unnest($1::uuid[]) WITH ORDINALITY AS page(id, n) JOIN orders o ON o.id = page.id ${ORDER_VIEW_JOINS}
  JOIN accounts ac ON ac.id = o.account_id LEFT JOIN staff_users su ON su.id = o.assignee_id
  ORDER BY page.n`,
  });
}

/**
 * The payments, accounts and assignees join the request's EntityManager, so the desk's fields find them without a
 * statement: the payment's books (staff only, D26) are read from its entity. A read's EntityManager only: mapping
 * a row refreshes an entity already there, unflushed changes included.
 */
async function readStaffOrderRows(em: EntityManager, ids: string[]): Promise<StaffOrderView[]> {
  const { rows, date } = await runPrepared(em, staffOrderRowsStatement(em), [ids]);
  return rows.map((row) => {
    const { order, files } = orderViewOf(row, date);
    const assignee = prefixedRow(row, ASSIGNEE);
    return {
      order: {
        ...order,
        payment: em.map(Payment, prefixedRow(row, PAYMENT)!),
        account: em.map(Account, prefixedRow(row, ACCOUNT)!),
        assignee: assignee ? em.map(StaffUser, assignee) : null,
      },
      files,
    };
  });
}
