import type { EntityManager } from '@mikro-orm/core';
import { BookingStatus } from './booking.entity';
import { Interpreter } from './interpreter.entity';
import type { Page, PageRequest } from '../shared/pagination';
import { runSql } from '../../db/orm-driver';
import { scalarColumns } from '../../db/entity-columns';

/** Bookings that hold their interpreter's time (D32): confirmed, or awaiting payment. */
export const HOLDING_TIME = [BookingStatus.CONFIRMED, BookingStatus.AWAITING_PAYMENT] as const;

/** The quiet time kept before and after each booking of an interpreter, in minutes (D32). */
export const BUFFER_MINUTES = 30;

/** The longest a booking lasts (its command's bound): what bounds the window of starts an overlap check reads. */
const LONGEST_BOOKING_HOURS = 12;

/** A time an interpreter would be needed: the start, and the length in hundredths of an hour. */
export interface TimeSlot {
  start: Date;
  durationHundredths: number;
}

/**
 * "The interpreter `i.id` has a booking holding its time within 30 minutes of the slot" as SQL, `?` for the slot's
 * start (twice), its length, and a booking to leave out. The starts are bounded on both sides (no booking lasts longer
 * than 12 hours), so the partial index `interpretation_bookings_interpreter_busy (interpreter_id, scheduled_at)` reads
 * one interpreter's few bookings around that time, however many years of bookings it has.
 */
const OVERLAP = `EXISTS (SELECT 1 FROM interpretation_bookings b
  WHERE b.interpreter_id = i.id AND b.status IN (${HOLDING_TIME.map((s) => `'${s}'`).join(', ')}) AND b.id <> ?
    AND b.scheduled_at > ?::timestamptz - interval '${LONGEST_BOOKING_HOURS} hours ${BUFFER_MINUTES} minutes'
    AND b.scheduled_at < ?::timestamptz + ? * interval '36 seconds' + interval '${BUFFER_MINUTES} minutes'
    AND b.scheduled_at + b.duration_hundredths * interval '36 seconds' + interval '${BUFFER_MINUTES} minutes' > ?::timestamptz)`;

const overlapParams = (slot: TimeSlot, exceptBookingId: string | null) => {
  const start = slot.start.toISOString();
  // A booking id no row has when none is left out: the check reads one statement's shape either way.
  return [exceptBookingId ?? '00000000-0000-0000-0000-000000000000', start, start, slot.durationHundredths, start];
};

/** What the desk's search asks for (D32); each part left out matches everyone. */
export interface InterpreterFilter {
  /** Inactive records too (the records screen); otherwise only those who can be confirmed. */
  includeInactive?: boolean;
  languages: string[];
  mode?: string;
  qualifications: string[];
  freeAt?: TimeSlot;
  /** The booking being confirmed, whose own time does not count against its interpreter. */
  exceptBookingId?: string;
}

/**
 * Active interpreters who match the filter, by name, a page and its total in one statement. Interpreters are few
 * (hundreds) next to bookings (years of them): the languages are matched on a GIN index, and each candidate's time is
 * checked through the busy index as the overlap check above says.
 */
export async function readInterpreterPage(
  em: EntityManager,
  filter: InterpreterFilter,
  request: PageRequest,
): Promise<Page<Interpreter>> {
  const conditions = filter.includeInactive ? [] : ['i.active'];
  const params: unknown[] = [];
  const where = (sql: string, ...values: unknown[]) => {
    conditions.push(sql);
    params.push(...values);
  };
  const array = (values: string[]) => `ARRAY[${values.map(() => '?').join(', ')}]::text[]`;
  if (filter.languages.length) where(`i.languages @> ${array(filter.languages)}`, ...filter.languages);
  if (filter.mode) where('i.modes @> ARRAY[?]::text[]', filter.mode);
  if (filter.qualifications.length)
    where(`i.qualifications @> ${array(filter.qualifications)}`, ...filter.qualifications);
  if (filter.freeAt) where(`NOT ${OVERLAP}`, ...overlapParams(filter.freeAt, filter.exceptBookingId ?? null));
  const columns = scalarColumns(em, Interpreter);
  const rows = await runSql<Record<string, unknown> & { total: number }>(
    em,
    `WITH hits AS MATERIALIZED (SELECT ${scalarColumns(em, Interpreter, 'i').join(', ')} FROM interpreters i WHERE ${conditions.join(' AND ') || 'true'})
SELECT (SELECT count(*)::int FROM hits) AS total, ${columns.map((c) => `page.${c}`).join(', ')}
FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT * FROM hits ORDER BY name, id LIMIT ? OFFSET ?) page ON true
ORDER BY page.name, page.id`,
    [...params, request.perPage, (request.page - 1) * request.perPage],
  );
  const items = rows.filter((row) => row.id !== null).map(({ total: _, ...row }) => em.map(Interpreter, row));
  return { items, total: rows[0]?.total ?? 0, ...request };
}

/**
 * Whether the interpreter has another booking holding its time within 30 minutes of the slot (D32); the caller holds
 * the interpreter's lock, so no confirmation can slip in between this answer and its own.
 */
export async function interpreterIsBusy(
  em: EntityManager,
  interpreterId: string,
  slot: TimeSlot,
  exceptBookingId: string,
): Promise<boolean> {
  const rows = await runSql(em, `SELECT 1 FROM interpreters i WHERE i.id = ? AND ${OVERLAP}`, [
    interpreterId,
    ...overlapParams(slot, exceptBookingId),
  ]);
  return rows.length > 0;
}
