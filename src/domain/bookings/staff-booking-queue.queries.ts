import type { EntityManager } from '@mikro-orm/core';
import type { StaffBookingRead } from './booking-read';
import type { BookingStatus } from './booking.entity';
import { Account } from '../identity/account.entity';
import { Payment } from '../payments/payment.entity';
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
import { BOOKING_JOINS, BOOKING_VIEW_COLUMNS, bookingOf } from './polled-bookings.queries';

export interface StaffBookingFilter {
  status?: BookingStatus;
  accountId?: string;
  /** Start times from (inclusive) and to (exclusive). */
  from?: Date;
  to?: Date;
  search?: string;
}

/**
 * Soonest first: served by `interpretation_bookings_scheduled_at_id_index` (every booking, a window of start times),
 * `interpretation_bookings_status_scheduled` and `interpretation_bookings_account_scheduled`, tie-break included.
 */
const BOOKING_QUEUE: DeskQueue = {
  table: 'interpretation_bookings',
  alias: 'b',
  sort: [
    ['scheduled_at', 'ASC'],
    ['id', 'ASC'],
  ],
};

/** The statements on `interpretation_bookings` alone for `filter` (see `QueueFilter.statements`). */
export function staffBookingQueueStatements(filter: StaffBookingFilter): QueueStatements {
  const query = new QueueFilter(BOOKING_QUEUE);
  if (filter.status) query.where('b.status = ?', filter.status);
  if (filter.accountId) query.where('b.account_id = ?', filter.accountId);
  if (filter.from) query.where('b.scheduled_at >= ?', filter.from);
  if (filter.to) query.where('b.scheduled_at < ?', filter.to);
  if (filter.search) query.search(...numberReferenceOrFirm('b', filter.search));
  return query.statements();
}

/**
 * The booking desk's list (D28): every account's bookings, soonest first, with their accounts, in three statements:
 * the page's ids and the total (one statement for a search), then the page's bookings.
 */
export function readStaffBookingPage(
  em: EntityManager,
  filter: StaffBookingFilter,
  request: PageRequest,
): Promise<Page<StaffBookingRead>> {
  return readQueuePage(em, staffBookingQueueStatements(filter), request, (ids) => readStaffBookingRows(em, ids));
}

/** How the statement names its payment's and account's columns. */
const [PAYMENT, ACCOUNT] = ['payment.', 'account.'];

let rowsStatement: PreparedStatement | undefined;

/**
 * `$1` the page's ids: each booking as its answer shows it (as the partner lists read it, with its payment), with its
 * account's row, in the page's order, in one prepared statement mapped onto the answer (as the order desk's page,
 * staff-order-queue.ts).
 */
function staffBookingRowsStatement(em: EntityManager): PreparedStatement {
  return (rowsStatement ??= {
    name: 'staff_booking_rows',
    sql: `SELECT ${BOOKING_VIEW_COLUMNS}, ${[
      ...prefixedColumns(em, Payment, 'p', PAYMENT),
      ...prefixedColumns(em, Account, 'ac', ACCOUNT),
    ].join(', ')}
  FROM unnest($1::uuid[]) WITH ORDINALITY AS page(id, n) JOIN interpretation_bookings b ON b.id = page.id
  ${BOOKING_JOINS} JOIN accounts ac ON ac.id = b.account_id
  ORDER BY page.n`,
  });
}

/**
 * The payments and accounts join the request's EntityManager, as the order desk's do (staff-order-queue.ts); a
 * booking has no payment before staff make its checkout.
 */
async function readStaffBookingRows(em: EntityManager, ids: string[]): Promise<StaffBookingRead[]> {
  const { rows, date } = await runPrepared(em, staffBookingRowsStatement(em), [ids]);
  return rows.map((row) => {
    const payment = prefixedRow(row, PAYMENT);
    return {
      ...bookingOf(row, date),
      payment: payment ? em.map(Payment, payment) : null,
      account: em.map(Account, prefixedRow(row, ACCOUNT)!),
    };
  });
}
