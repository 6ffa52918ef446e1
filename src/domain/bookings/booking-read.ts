import type { EntityManager } from '@mikro-orm/core';
import { PAYMENT_COLUMNS, paymentOf, type PaymentRead } from '../payments/payment-read';
import type { PageRequest, VersionedPage } from '../shared/pagination';
import { readAccountPage, readRow, type AccountListFilter, type DateOf, type ListShape, type PreparedRead, type Row } from '../shared/raw-read';
import type { Booking } from './booking.entity';

/**
 * What the answer about a booking shows: a `Booking` entity is one, and so is the polled read below. Hours are read as
 * the stored hundredths, which both doors turn into hours with `hoursOf`.
 */
export type BookingRead = Pick<
  Booking,
  | 'id' | 'number' | 'status' | 'mode' | 'setting' | 'sourceLanguage' | 'targetLanguage' | 'scheduledAt' | 'durationHundredths'
  | 'billableHundredths' | 'unitPriceCents' | 'totalCents' | 'currency' | 'location' | 'videoPlatformNotes' | 'reference'
  | 'interpreterName' | 'holdReason' | 'completedAt' | 'cancelledAt' | 'createdAt' | 'updatedAt' | 'placedBy'
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
  b.updated_at, b.placed_by, b.payment_id, ${PAYMENT_COLUMNS}`;

const READ: PreparedRead = { name: 'booking_read', sql: `SELECT ${COLUMNS}, ${VERSION} AS version ${FROM} ${MATCH}` };

const READ_VERSION: PreparedRead = { name: 'booking_version', sql: `SELECT ${VERSION} AS version ${FROM} ${MATCH}` };

/** An account's bookings as their list shows them, with their payments. */
const LIST: ListShape = {
  name: 'booking_page',
  from: 'interpretation_bookings b',
  alias: 'b',
  columns: COLUMNS,
  version: VERSION,
  joins: 'LEFT JOIN interpretation_bookings b ON b.id = page.id LEFT JOIN payments p ON p.id = b.payment_id',
  key: ['b.created_at', 'b.id'],
};

/** The polling path (D23): the booking of this account with its payment in one statement, no entity hydrated. */
export async function readBooking(em: EntityManager, accountId: string, id: string): Promise<PolledBooking | null> {
  const { row, date } = await readRow(em, READ, [id, accountId]);
  return row ? { booking: bookingOf(row, date), version: row.version as string } : null;
}

/** A page of an account's bookings as their answers show them, with its total, in one statement, as orders. */
export function readBookingPage(em: EntityManager, accountId: string, filter: AccountListFilter, request: PageRequest): Promise<VersionedPage<BookingRead>> {
  return readAccountPage(em, LIST, accountId, filter, request, bookingOf);
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
    placedBy: row.placed_by as Booking['placedBy'],
  };
}

/** Only the version, for a conditional request: nothing of the answer is read. */
export async function readBookingVersion(em: EntityManager, accountId: string, id: string): Promise<string | null> {
  const { row } = await readRow(em, READ_VERSION, [id, accountId]);
  return (row?.version as string | undefined) ?? null;
}
