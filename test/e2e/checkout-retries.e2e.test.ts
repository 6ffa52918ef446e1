import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { CompleteWithHoursDocument, ConfirmInterpretationAvailabilityDocument } from '../graphql/generated';
import { passStart, payBookingCheckout, requestBooking } from '../helpers/bookings';
import { docx, words } from '../helpers/documents';
import { uploadFile, waitForAnalysis } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D26: a transaction PostgreSQL breaks (a deadlock, a serialization conflict) is run again from the start. The
 * changes that make a checkout before their transaction (a quote's conversion, a booking's confirmation, its
 * completion with overtime) must survive that retry: the second attempt writes the payment the first one could not,
 * once, and the answer is the one a first attempt would have given, never a 500. The database itself breaks the
 * first attempt here: a trigger fails the first payment written after the test arms it, as a deadlock would.
 */
let t: TestApp;
let alice: TestAccount;
let desk: string;

const sql = (text: string, params: unknown[] = []) => t.orm.em.fork().getConnection().execute(text, params);

beforeAll(async () => {
  t = await startTestApp({ workers: true });
  alice = await createApprovedAccount(t, await createStaffToken(t));
  desk = await createStaffToken(t, StaffRole.DESK);
  // A sequence, not a table: its counter is not rolled back with the attempt it fails.
  await sql(`CREATE SEQUENCE payment_deadlocks`);
  await sql(`CREATE FUNCTION deadlock_once() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF nextval('payment_deadlocks') = 1 THEN
        RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01';
      END IF;
      RETURN NEW;
    END $$`);
  await sql(
    `CREATE TRIGGER payments_deadlock_once BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION deadlock_once()`,
  );
});
afterAll(() => t.close());

/** The next payment written fails once, as a deadlock; the one after it goes through. */
const armDeadlock = () => sql(`SELECT setval('payment_deadlocks', 1, false)`);
/** The payments tried since the trigger was armed: 2 when the first failed and a retry wrote it. */
const paymentsTried = async () => {
  const [{ last_value, is_called }] = await sql(`SELECT last_value, is_called FROM payment_deadlocks`);
  return is_called ? Number(last_value) : 0;
};

const paymentsOf = async (column: 'order_id' | 'booking_id', id: string) =>
  (await sql(`SELECT status, amount_cents FROM payments WHERE ${column} = ? ORDER BY created_at`, [id])) as {
    status: string;
    amount_cents: number;
  }[];

beforeEach(async () => {
  // Nothing armed: each test arms the trigger just before the change it breaks.
  await sql(`SELECT setval('payment_deadlocks', 2)`);
});

it('converts a quote whose first attempt deadlocked, with one order and one payment', async () => {
  const file = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(250)] }), 'contract.docx')).id;
  await waitForAnalysis(t, alice.key, file);
  const quote = (
    await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [file] },
        alice.key,
      )
      .expect(201)
  ).body.data;
  await armDeadlock();
  const converted = await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key);
  expect(await paymentsTried()).toBe(2);
  expect(converted.status).toBe(201);
  const order = (await t.rest.get(`/api/v1/orders/${converted.body.data.id}`, alice.key).expect(200)).body.data;
  expect(order).toMatchObject({ status: 'pending_payment', total_cents: quote.total_cents });
  // The quote was converted once: the attempt that failed left nothing behind.
  expect(await sql(`SELECT count(*)::int AS n FROM orders WHERE quote_id = ?`, [quote.id])).toEqual([{ n: 1 }]);
  expect(await paymentsOf('order_id', order.id)).toEqual([{ status: 'created', amount_cents: quote.total_cents }]);
  // The checkout link the retry attached is the one that pays.
  await t.rest
    .raw()
    .post(`${converted.body.provider_approval_url.replace(t.config.appUrl, '')}/pay`)
    .type('form')
    .send({})
    .expect(200);
  const paid = (await t.rest.get(`/api/v1/orders/${order.id}`, alice.key).expect(200)).body.data;
  expect(paid.status).not.toBe('pending_payment');
});

it('confirms a booking whose first attempt deadlocked, and completes it with overtime the same way', async () => {
  const booking = await requestBooking(t, alice.key);
  await armDeadlock();
  const confirmed = await t.gql(
    ConfirmInterpretationAvailabilityDocument,
    { id: booking.id, interpreterName: 'Inés Interpreter' },
    desk,
  );
  expect(await paymentsTried()).toBe(2);
  expect(confirmed.errors).toBeUndefined();
  expect(confirmed.data!.confirmInterpretationAvailability.status).toBe('AWAITING_PAYMENT');
  await payBookingCheckout(t, booking.id, alice.key);
  expect(await paymentsOf('booking_id', booking.id)).toEqual([
    { status: 'captured', amount_cents: booking.total_cents },
  ]);

  await passStart(t, booking.id);
  await armDeadlock();
  const done = await t.gql(CompleteWithHoursDocument, { id: booking.id, actualHours: 3 }, desk);
  expect(await paymentsTried()).toBe(2);
  expect(done.errors).toBeUndefined();
  expect(done.data!.completeInterpretationBooking.payment.overtime).toMatchObject({ hours: 1 });
  const rest = (await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, alice.key).expect(200)).body.data;
  expect(rest.status).toBe('completed');
  expect(rest.payment.overtime.approval_url).toEqual(expect.any(String));
  const payments = await paymentsOf('booking_id', booking.id);
  expect(payments).toHaveLength(2);
  expect(payments[1]).toEqual({ status: 'created', amount_cents: rest.payment.overtime.amount_cents });
});
