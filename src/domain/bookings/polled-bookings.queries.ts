import type { EntityManager } from '@mikro-orm/core';
import type { BookingRead, PolledBooking } from './booking-read';
import type { Booking } from './booking.entity';
import type { Interpreter } from './interpreter.entity';
import type { PageRequest, VersionedPage } from '../shared/pagination';
import { runPrepared, type DateOf, type PreparedStatement, type SqlRow } from '../../db/orm-driver';
import { readAccountPage, type AccountListFilter, type ListShape } from '../shared/account-page.queries';
import { PAYMENT_COLUMNS, paymentOf } from '../payments/holder-payment.queries';

/**
 * The version of a booking's answer: which committed version of its row and of its payment's row, if any, it shows
 * (`xmin`, as for orders in polled-orders.queries.ts). Taken in the database, so no write path can forget to bump it.
 */
const VERSION = `md5(b.xmin::text || '/' || coalesce(p.xmin::text, '') || '/' || coalesce(i.xmin::text, '') || '/' || coalesce(op.xmin::text, ''))`;

/**
 * What a booking's answer reads beside it, each by its key: its payment `p`, the interpreter on record `i` and the
 * overtime's payment `op` (D32); still one statement for the polled read.
 */
export const BOOKING_JOINS = `LEFT JOIN payments p ON p.id = b.payment_id LEFT JOIN interpreters i ON i.id = b.interpreter_id
  LEFT JOIN payments op ON op.id = b.overtime_payment_id`;

const FROM = `FROM interpretation_bookings b ${BOOKING_JOINS}`;

/** A booking's answer, as `bookingOf` maps it (`b` the booking, its payment `p` left-joined). */
export const BOOKING_VIEW_COLUMNS = `b.id, b.number, b.status, b.held_from, b.mode, b.setting, b.source_language, b.target_language, b.scheduled_at, b.scheduled_offset_minutes,
  b.duration_hundredths, b.billable_hundredths, b.unit_price_cents, b.total_cents, b.currency, b.location,
  b.video_platform_notes, b.reference, b.interpreter_name, b.hold_reason, b.completed_at, b.cancelled_at, b.created_at,
  b.updated_at, b.placed_by, b.payment_id, ${PAYMENT_COLUMNS}, b.interpreter_id, i.name AS interpreter_record_name,
  i.qualifications AS interpreter_qualifications, b.actual_hundredths, b.overtime_hundredths, b.overtime_cents,
  b.overtime_payment_id, op.provider AS overtime_provider, op.approval_url AS overtime_approval_url, op.paid_at AS overtime_paid_at,
  op.refunded_cents AS overtime_refunded_cents`;

/**
 * A booking of an account with its payment, if staff made its checkout, and its version: booking `id` of the account
 * `account` names, parameters or, when the key's look-up reads it in the same statement (account-by-key.queries.ts),
 * the key's account.
 */
export const bookingAnswerOf = (id: string, account: string) =>
  `SELECT ${BOOKING_VIEW_COLUMNS}, ${VERSION} AS version ${FROM} WHERE b.id = ${id} AND b.account_id = ${account}`;

/** A booking of an account (`$1` the booking, `$2` the account), as `bookingAnswerOf` reads it. */
export const BOOKING_READ: PreparedStatement = { name: 'booking_read', sql: bookingAnswerOf('$1', '$2') };

/**
 * Only the version of that answer, for a conditional request: of booking `id` of the account `account` names, parameters
 * or, when the key's look-up reads it in the same statement (account-by-key.queries.ts), the key's account.
 */
export const bookingVersionOf = (id: string, account: string) =>
  `SELECT ${VERSION} AS version ${FROM} WHERE b.id = ${id} AND b.account_id = ${account}`;

export const BOOKING_VERSION: PreparedStatement = { name: 'booking_version', sql: bookingVersionOf('$1', '$2') };

/** An account's bookings as their list shows them, with their payments. */
export const BOOKING_LIST: ListShape = {
  name: 'booking_page',
  from: 'interpretation_bookings b',
  alias: 'b',
  columns: BOOKING_VIEW_COLUMNS,
  version: VERSION,
  joins: `LEFT JOIN interpretation_bookings b ON b.id = page.id ${BOOKING_JOINS}`,
  key: ['b.created_at', 'b.id'],
};

/** The polling path (D23): the booking of this account with its payment in one statement, no entity hydrated. */
export async function readBooking(em: EntityManager, accountId: string, id: string): Promise<PolledBooking | null> {
  const { rows, date } = await runPrepared(em, BOOKING_READ, [id, accountId]);
  return rows[0] ? polledBookingOf(rows[0], date) : null;
}

/** A row of `bookingAnswerOf` as the polled booking, whether read alone or with the key. */
export const polledBookingOf = (row: SqlRow, date: DateOf): PolledBooking => ({
  booking: bookingOf(row, date),
  version: row.version as string,
});

/** A page of an account's bookings as their answers show them, with its total, in one statement, as orders. */
export function readBookingPage(
  em: EntityManager,
  accountId: string,
  filter: AccountListFilter,
  request: PageRequest,
): Promise<VersionedPage<BookingRead>> {
  return readAccountPage(em, BOOKING_LIST, accountId, filter, request, bookingOf);
}

/** Only the version, for a conditional request: nothing of the answer is read. */
export async function readBookingVersion(em: EntityManager, accountId: string, id: string): Promise<string | null> {
  const { rows } = await runPrepared(em, BOOKING_VERSION, [id, accountId]);
  return (rows[0]?.version as string | undefined) ?? null;
}

/** A row of `BOOKING_VIEW_COLUMNS`, as the entity path answers it (tested). */
export function bookingOf(row: SqlRow, date: DateOf): BookingRead {
  return {
    id: row.id as string,
    number: row.number as string,
    status: row.status as Booking['status'],
    heldFrom: row.held_from as Booking['heldFrom'],
    mode: row.mode as Booking['mode'],
    setting: row.setting as Booking['setting'],
    sourceLanguage: row.source_language as string,
    targetLanguage: row.target_language as string,
    scheduledAt: date(row.scheduled_at)!,
    scheduledOffsetMinutes: row.scheduled_offset_minutes as number,
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
    interpreter:
      row.interpreter_id === null
        ? null
        : {
            name: row.interpreter_record_name as string,
            qualifications: row.interpreter_qualifications as Interpreter['qualifications'],
          },
    actualHundredths: row.actual_hundredths as number | null,
    overtimeHundredths: row.overtime_hundredths as number | null,
    overtimeCents: row.overtime_cents as number | null,
    overtimePayment:
      row.overtime_payment_id === null
        ? null
        : {
            id: row.overtime_payment_id as string,
            provider: row.overtime_provider as string,
            approvalUrl: row.overtime_approval_url as string | null,
            paidAt: date(row.overtime_paid_at),
            refundedCents: row.overtime_refunded_cents as number,
          },
    holdReason: row.hold_reason as string | null,
    completedAt: date(row.completed_at),
    cancelledAt: date(row.cancelled_at),
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
    placedBy: row.placed_by as Booking['placedBy'],
  };
}
