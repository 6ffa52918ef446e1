import { LockMode, type EntityManager } from '@mikro-orm/core';
import { BUFFER_MINUTES, HOLDING_TIME, interpreterIsBusy } from './interpreter-availability.queries';
import type { Booking } from './booking.entity';
import { Interpreter } from './interpreter.entity';
import { busyRefusal } from './interpreter-rules';

/**
 * D32: one interpreter is never in two places. When `booking` (locked by the caller) holds its interpreter's time at
 * its current start and length, the interpreter's row is locked (after the booking: one lock order everywhere) and no
 * other booking holding its time may come within 30 minutes of it; 422 `interpreter_id` otherwise. Two confirmations
 * or reschedules of one interpreter take its lock in turn, and the second sees what the first committed.
 */
export async function assertInterpreterFree(em: EntityManager, booking: Booking): Promise<void> {
  if (!booking.interpreter || !(HOLDING_TIME as readonly string[]).includes(booking.status)) return;
  await em.findOne(Interpreter, { id: booking.interpreter.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const slot = { start: booking.scheduledAt, durationHundredths: booking.durationHundredths };
  if (await interpreterIsBusy(em, booking.interpreter.id, slot, booking.id)) throw busyRefusal(BUFFER_MINUTES);
}
