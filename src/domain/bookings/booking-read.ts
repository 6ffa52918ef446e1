import type { EntityManager } from '@mikro-orm/core';
import { PAYMENT_COLUMNS, paymentOf, type PaymentRead } from '../payments/payment-read';
import type { Page, PageRequest } from '../shared/pagination';
import { readPage, readRow, type DateOf, type PreparedRead, type Row } from '../shared/raw-read';
import type { Booking } from './booking.entity';

/**
 * What the answer about a booking shows: a `Booking` entity is one, and so is the polled read below. Hours are read as
 * the stored hundredths, which both doors turn into hours with `hoursOf`.
 */
export type BookingRead = Pick<
  Booking,
  | 'id' | 'number' | 'status' | 'mode' | 'setting' | 'sourceLanguage' | 'targetLanguage' | 'scheduledAt' | 'durationHundredths'
  | 'billableHundredths' | 'unitPriceCents' | 'totalCents' | 'currency' | 'location' | 'videoPlatformNotes' | 'reference'
  | 'interpreterName' | 'holdReason' | 'completedAt' | 'cancelledAt' | 'createdAt' | 'updatedAt'
> & { payment: PaymentRead | null };

/** A booking as polled: its answer and the version its `ETag` is made from (D23). */
export interface PolledBooking {
  booking: BookingRead;
  version: string;
}

/**
 * The version of a booking's answer: which committed version of its row and of its payment's row, if any, it shows
 * (`xmin`, as for orders in order-read.ts). Taken in the database, so no write path can forget to bump it.
 */
const VERSION = `md5(b.xmin::text || '/' || coalesce(p.xmin::text, ''))`;

const FROM = `FROM interpretation_bookings b LEFT JOIN payments p ON p.id = b.payment_id`;

const MATCH = `WHERE b.id = $1 AND b.account_id = $2`;

const COLUMNS = `b.id, b.number, b.status, b.mode, b.setting, b.source_language, b.target_language, b.scheduled_at,
  b.duration_hundredths, b.billable_hundredths, b.unit_price_cents, b.total_cents, b.currency, b.location,
  b.video_platform_notes, b.reference, b.interpreter_name, b.hold_reason, b.completed_at, b.cancelled_at, b.created_at,
  b.updated_at, b.payment_id, ${PAYMENT_COLUMNS}`;

const READ: PreparedRead = { name: 'booking_read', sql: `SELECT ${COLUMNS}, ${VERSION} AS version ${FROM} ${MATCH}` };

const READ_VERSION: PreparedRead = { name: 'booking_version', sql: `SELECT ${VERSION} AS version ${FROM} ${MATCH}` };

/** An account's bookings, newest first, optionally of one status. */
const PAGE_FILTER = `b.account_id = $1 AND ($2::text IS NULL OR b.status = $2)`;

const READ_PAGE: PreparedRead = {
  name: 'booking_page',
  sql: `SELECT ${COLUMNS} ${FROM} WHERE ${PAGE_FILTER} ORDER BY b.created_at DESC, b.id DESC LIMIT $3 OFFSET $4`,
};

const COUNT_PAGE: PreparedRead = { name: 'booking_count', sql: `SELECT count(*)::int AS total FROM interpretation_bookings b WHERE ${PAGE_FILTER}` };

/** The polling path (D23): the booking of this account with its payment in one statement, no entity hydrated. */
export async function readBooking(em: EntityManager, accountId: string, id: string): Promise<PolledBooking | null> {
  const { row, date } = await readRow(em, READ, [id, accountId]);
  return row ? { booking: bookingOf(row, date), version: row.version as string } : null;
}

/** A page of an account's bookings as their answers show them, in two statements and without entities, as orders. */
export function readBookingPage(em: EntityManager, accountId: string, status: string | undefined, request: PageRequest): Promise<Page<BookingRead>> {
  return readPage(em, { page: READ_PAGE, count: COUNT_PAGE }, [accountId, status ?? null], request, bookingOf);
}

function bookingOf(row: Row, date: DateOf): BookingRead {
  return {
    id: row.id as string,
    number: row.number as string,
    status: row.status as Booking['status'],
    mode: row.mode as Booking['mode'],
    setting: row.setting as Booking['setting'],
    sourceLanguage: row.source_language as string,
    targetLanguage: row.target_language as string,
    scheduledAt: date(row.scheduled_at)!,
    durationHundredths: row.duration_hundredths as number,
    billableHundredths: row.billable_hundredths as number,
    unitPriceCents: row.unit_price_cents as number,
    totalCents: row.total_cents as number,
    currency: row.currency as string,
    payment: row.payment_id === null ? null : paymentOf(row, date),
    location: row.location as string | null,
    videoPlatformNotes: row.video_platform_notes as string | null,
    reference: row.reference as string | null,
    interpreterName: row.interpreter_name as string | null,
    holdReason: row.hold_reason as string | null,
    completedAt: date(row.completed_at),
    cancelledAt: date(row.cancelled_at),
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
  };
}

/** Only the version, for a conditional request: nothing of the answer is read. */
export async function readBookingVersion(em: EntityManager, accountId: string, id: string): Promise<string | null> {
  const { row } = await readRow(em, READ_VERSION, [id, accountId]);
  return (row?.version as string | undefined) ?? null;
}
