import type { EntityManager } from '@mikro-orm/core';
import { Booking, type BookingStatus } from '../../domain/bookings/booking.entity';
import type { Page, PageRequest } from '../../domain/shared/pagination';
import { entitiesOf, QueueFilter, readQueuePage, type DeskQueue, type QueueStatements } from './desk-queue';

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
  if (filter.search) query.search(filter.search);
  return query.statements();
}

/** The booking desk's list (D28): every account's bookings, soonest first, with their accounts, in three statements. */
export function readStaffBookingPage(
  em: EntityManager,
  filter: StaffBookingFilter,
  request: PageRequest,
): Promise<Page<Booking>> {
  return readQueuePage(em, staffBookingQueueStatements(filter), request, entitiesOf(em, Booking, ['account']));
}
