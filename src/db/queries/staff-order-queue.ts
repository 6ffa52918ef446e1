import type { EntityManager } from '@mikro-orm/core';
import { Order, OrderStatus } from '../../domain/orders/order.entity';
import { FINISHED_ORDER_STATUSES } from '../../domain/orders/order.states';
import type { Page, PageRequest } from '../../domain/shared/pagination';
import { QueueFilter, readQueuePage, type DeskQueue, type QueueStatements } from './desk-queue';

export interface StaffOrderFilter {
  status?: OrderStatus;
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
  if (filter.accountId) query.where('o.account_id = ?', filter.accountId);
  if (filter.assigneeId) query.where('o.assignee_id = ?', filter.assigneeId);
  if (filter.overdue) {
    query.where('o.due_at < now()');
    if (!filter.status) query.where(`o.status NOT IN (${FINISHED})`);
  }
  if (filter.search) query.search(filter.search);
  return query.statements();
}

/**
 * The desk's queue (docs/decisions.md G4, G5): every account's orders, soonest due first, in three statements
 * whatever the filters, with their accounts and assignees:
 * - overdue: `due_at < now()` and not finished, served by the partial index of open work;
 * - search: see `QueueFilter.search`; a firm's name finds a few hundred orders, a surname shared by 600 firms 60,000
 *   and takes a tenth of a second.
 */
export function readStaffOrderPage(
  em: EntityManager,
  filter: StaffOrderFilter,
  request: PageRequest,
): Promise<Page<Order>> {
  return readQueuePage(em, Order, staffOrderQueueStatements(filter), request, ['account', 'assignee']);
}
