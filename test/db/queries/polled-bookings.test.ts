import { expect } from '@jest/globals';
import { readBooking, readBookingPage, readBookingVersion } from '../../../src/domain/bookings/polled-bookings.queries';
import type { Account } from '../../../src/domain/identity/account.entity';
import { BookingStatus } from '../../../src/domain/bookings/booking.entity';
import { newId } from '../../../src/domain/shared/ids';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount, insertBooking } from '../../helpers/rows';

let db: QueryDatabase;
let account: Account;
beforeAll(async () => {
  db = await openQueryDatabase();
  account = await insertAccount(db.em());
});
afterAll(() => db.close());

const paidAt = new Date(Date.UTC(2026, 0, 2, 10, 0));

it("answers an account's booking with its payment in one statement, and a booking before its checkout with none", async () => {
  const paid = await insertBooking(
    db.em(),
    account,
    { status: BookingStatus.CONFIRMED, location: 'Courtroom 4' },
    { providerOrderId: 'PP-1', paidAt },
  );
  const unpaid = await insertBooking(db.em(), account);
  db.statements.length = 0;
  const polled = await readBooking(db.em(), account.id, paid.id);
  expect(db.statements).toHaveLength(1);
  expect(polled).toEqual({
    booking: expect.objectContaining({
      id: paid.id,
      number: paid.number,
      status: BookingStatus.CONFIRMED,
      location: 'Courtroom 4',
      scheduledAt: paid.scheduledAt,
      durationHundredths: 200,
      payment: {
        id: paid.payment!.id,
        provider: 'sandbox',
        providerOrderId: 'PP-1',
        approvalUrl: null,
        paidAt,
        refundedAt: null,
        refundedCents: 0,
      },
    }),
    version: expect.stringMatching(/^[0-9a-f]{32}$/),
  });
  expect((await readBooking(db.em(), account.id, unpaid.id))!.booking.payment).toBeNull();
});

it('answers what the cancellation deadlines are read from: the state held from and the offset booked in (D32)', async () => {
  const held = await insertBooking(
    db.em(),
    account,
    { status: BookingStatus.ON_HOLD, heldFrom: BookingStatus.CONFIRMED, scheduledOffsetMinutes: -300 },
    { paidAt },
  );
  const polled = await readBooking(db.em(), account.id, held.id);
  expect(polled!.booking).toMatchObject({
    status: BookingStatus.ON_HOLD,
    heldFrom: BookingStatus.CONFIRMED,
    scheduledOffsetMinutes: -300,
  });
});

it("answers nothing for another account's booking or an unknown one", async () => {
  const theirs = await insertBooking(db.em(), await insertAccount(db.em()));
  expect(await readBooking(db.em(), account.id, theirs.id)).toBeNull();
  expect(await readBookingVersion(db.em(), account.id, theirs.id)).toBeNull();
  expect(await readBooking(db.em(), account.id, newId())).toBeNull();
});

it("gives the read's version alone, moving with the booking's row and its payment's", async () => {
  const booking = await insertBooking(db.em(), account, {}, {});
  const first = await readBookingVersion(db.em(), account.id, booking.id);
  expect(first).toBe((await readBooking(db.em(), account.id, booking.id))!.version);
  await db.em().nativeUpdate('Payment', { id: booking.payment!.id }, { approvalUrl: 'https://pay.example.test/2' });
  const second = await readBookingVersion(db.em(), account.id, booking.id);
  await db.em().nativeUpdate('Booking', { id: booking.id }, { interpreterName: 'A. Reyes' });
  expect(new Set([first, second, await readBookingVersion(db.em(), account.id, booking.id)]).size).toBe(3);
});

it("pages an account's bookings newest first, each as its read answers it", async () => {
  const mine = await insertAccount(db.em());
  const older = await insertBooking(db.em(), mine, { createdAt: new Date(Date.UTC(2026, 0, 1)) });
  const newer = await insertBooking(db.em(), mine, { createdAt: new Date(Date.UTC(2026, 0, 2)) });
  const page = await readBookingPage(db.em(), mine.id, {}, { page: 1, perPage: 15 });
  expect(page.items.map((booking) => booking.id)).toEqual([newer.id, older.id]);
  expect(page.items[0]).toEqual((await readBooking(db.em(), mine.id, newer.id))!.booking);
});
