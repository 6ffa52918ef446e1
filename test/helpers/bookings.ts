import type { TestApp } from './test-app';

/** Moves a booking's start an hour into the past, as time would: completion waits for it, expiry follows it (D29). */
export async function passStart(t: TestApp, bookingId: string): Promise<void> {
  await t.orm.em
    .fork()
    .getConnection()
    .execute(`UPDATE interpretation_bookings SET scheduled_at = now() - interval '1 hour' WHERE id = ?`, [bookingId]);
}

/**
 * A booking `key`'s account requests through REST (POST /interpretation-bookings): a two-hour video interpretation
 * from Spanish into English, tomorrow unless `fields` say otherwise. Its answer's `data`.
 */
export async function requestBooking(
  t: TestApp,
  key: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; number: string } & Record<string, unknown>> {
  const body = {
    source_language: 'es',
    target_language: 'en',
    mode: 'video_remote',
    scheduled_at: new Date(Date.now() + 24 * 3600_000).toISOString(),
    duration_hours: 2,
    ...fields,
  };
  const res = await t.rest.post('/api/v1/interpretation-bookings', body, key).expect(201);
  return (res.body as { data: { id: string; number: string } & Record<string, unknown> }).data;
}
