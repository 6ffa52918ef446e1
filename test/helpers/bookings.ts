import { CreateInterpreterDocument, type InterpreterInput } from '../graphql/generated';
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

/** Pays a booking's checkout as the client would, at the sandbox checkout page its approval link opens. */
export async function payBookingCheckout(t: TestApp, bookingId: string, key: string): Promise<void> {
  const answer = await t.rest.get(`/api/v1/interpretation-bookings/${bookingId}`, key).expect(200);
  const { payment } = (answer.body as { data: { payment: { approval_url: string } } }).data;
  await t.rest
    .raw()
    .post(`${payment.approval_url.replace(t.config.appUrl, '')}/pay`)
    .type('form')
    .send({})
    .expect(200);
}

let interpreters = 0;

/** An interpreter record the desk keeps (D32): Spanish, by video, unless `input` says otherwise. */
export async function createInterpreter(
  t: TestApp,
  staffToken: string,
  input: Partial<InterpreterInput> = {},
): Promise<{ id: string; name: string }> {
  const res = await t.gql(
    CreateInterpreterDocument,
    {
      input: {
        name: `Inés Interpreter ${++interpreters}`,
        email: `interpreter-${Date.now().toString(36)}-${interpreters}@interpreters.test`,
        languages: ['es'],
        modes: ['VIDEO_REMOTE'],
        ...input,
      },
    },
    staffToken,
  );
  expect(res.errors).toBeUndefined();
  return res.data!.createInterpreter;
}
