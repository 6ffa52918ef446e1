import { migrate } from '../../src/db/migrations';
import { ConfirmInterpretationAvailabilityDocument } from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * A payment names what it pays for (docs/architecture.md, "How a payment flows"): set with its checkout, kept by a
 * renewed checkout's old payment, and given to the payments stored before the name was by the migration that adds it.
 */
const MIGRATION = 'Migration20261125100000_payment_owner';
let t: TestApp;
let staff: string;
let alice: TestAccount;
beforeAll(async () => {
  t = await startTestApp({ workers: false });
  staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
});
afterAll(() => t.close());

const sql = <T extends object = Record<string, unknown>>(query: string, params: unknown[] = []) =>
  t.orm.em.fork().getConnection().execute<T[]>(query, params);
/** Every payment with the owner it names, oldest first. */
const owners = () =>
  sql<{ id: string; status: string; order_id: string | null; booking_id: string | null }>(
    `SELECT id, status, order_id, booking_id FROM payments ORDER BY created_at, id`,
  );

/** An order and a booking, each with a renewed checkout: their first payments voided, their second ones open. */
async function renewedOrderAndBooking(): Promise<{ orderId: string; bookingId: string }> {
  const fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(300)] }), 'lease.docx')).id;
  const quote = (
    await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [fileId] },
        alice.key,
      )
      .expect(201)
  ).body.data;
  const orderId = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201)).body.data
    .id as string;
  await t.rest.post(`/api/v1/orders/${orderId}/checkout`, undefined, alice.key).expect(200);
  const scheduledAt = new Date(Date.now() + 48 * 3600_000).toISOString();
  const bookingId = (
    await t.rest
      .post(
        '/api/v1/interpretation-bookings',
        {
          source_language: 'es',
          target_language: 'en',
          mode: 'video_remote',
          scheduled_at: scheduledAt,
          duration_hours: 2,
        },
        alice.key,
      )
      .expect(201)
  ).body.data.id as string;
  expect(
    (await t.gql(ConfirmInterpretationAvailabilityDocument, { id: bookingId, interpreterName: 'Ana Ruiz' }, staff))
      .errors,
  ).toBeUndefined();
  await t.rest.post(`/api/v1/interpretation-bookings/${bookingId}/checkout`, undefined, alice.key).expect(200);
  return { orderId, bookingId };
}

it('names the order or the booking of every checkout, a renewed one included', async () => {
  const { orderId, bookingId } = await renewedOrderAndBooking();
  expect((await owners()).map(({ status, order_id, booking_id }) => ({ status, order_id, booking_id }))).toEqual([
    { status: 'voided', order_id: orderId, booking_id: null },
    { status: 'created', order_id: orderId, booking_id: null },
    { status: 'voided', order_id: null, booking_id: bookingId },
    { status: 'created', order_id: null, booking_id: bookingId },
  ]);
});

it('is given to the payments stored before it by its migration: the current ones by their owner, renewed ones by the audit', async () => {
  const named = await owners();
  await t.orm.migrator.down({ migrations: [MIGRATION] });
  expect(
    await sql(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'payments' AND column_name IN ('order_id', 'booking_id')`,
    ),
  ).toEqual([]);
  expect(await migrate(t.orm)).toEqual([MIGRATION]);
  expect(await owners()).toEqual(named);
});

it('is exactly one owner: the database refuses a payment with none, or with two', async () => {
  const [first, , third] = await owners();
  await expect(sql(`UPDATE payments SET order_id = NULL WHERE id = ?`, [first.id])).rejects.toThrow(
    /payments_one_owner_check/,
  );
  await expect(sql(`UPDATE payments SET booking_id = ? WHERE id = ?`, [third.booking_id, first.id])).rejects.toThrow(
    /payments_one_owner_check/,
  );
});
