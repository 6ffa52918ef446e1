import type { TestApp } from './test-app';

/** Moves a booking's start an hour into the past, as time would: completion waits for it, expiry follows it (D29). */
export async function passStart(t: TestApp, bookingId: string): Promise<void> {
  await t.orm.em
    .fork()
    .getConnection()
    .execute(`UPDATE interpretation_bookings SET scheduled_at = now() - interval '1 hour' WHERE id = ?`, [bookingId]);
}
