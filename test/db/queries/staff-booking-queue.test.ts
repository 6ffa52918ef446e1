import {
  readStaffBookingPage,
  staffBookingQueueStatements,
  type StaffBookingFilter,
} from '../../../src/domain/bookings/staff-booking-queue.queries';
import { readBooking } from '../../../src/domain/bookings/polled-bookings.queries';
import { Booking, BookingStatus } from '../../../src/domain/bookings/booking.entity';
import { Account } from '../../../src/domain/identity/account.entity';
import { Payment } from '../../../src/domain/payments/payment.entity';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount, insertBooking, paymentRead } from '../../helpers/rows';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000);
const idsOf = (filter: StaffBookingFilter, perPage = 50) =>
  readStaffBookingPage(db.em(), filter, { page: 1, perPage }).then((page) => page.items.map((booking) => booking.id));

it('writes only the filters given into the SQL', () => {
  const filters: StaffBookingFilter[] = [
    {},
    { status: BookingStatus.REQUESTED },
    { accountId: 'a', from: new Date('2026-12-01T00:00:00Z'), to: new Date('2026-12-02T00:00:00Z') },
    { status: BookingStatus.CONFIRMED, search: '50%_off' },
  ];
  for (const filter of filters) expect(staffBookingQueueStatements(filter)).toMatchSnapshot(JSON.stringify(filter));
});

describe('readStaffBookingPage', () => {
  let bookings: Record<string, Booking>;
  beforeAll(async () => {
    const em = db.em();
    const [dubois, garrido] = [
      await insertAccount(em, { name: 'Dubois & Fontaine' }),
      await insertAccount(em, { name: 'Garrido 50% Legal' }),
    ];
    // Two at the same start: the tie is broken by id.
    const tie = daysFromNow(3);
    bookings = {
      tomorrow: await insertBooking(em, dubois, { scheduledAt: daysFromNow(1), reference: 'Deposition 12' }),
      tieA: await insertBooking(em, garrido, { scheduledAt: tie, status: BookingStatus.CONFIRMED }),
      tieB: await insertBooking(em, garrido, { scheduledAt: tie, status: BookingStatus.CONFIRMED }),
      nextWeek: await insertBooking(em, dubois, { scheduledAt: daysFromNow(7), reference: 'Hearing_day' }),
    };
  });
  const byTie = () => [bookings.tieA.id, bookings.tieB.id].sort();

  it('lists every booking soonest first, ties by id, with their accounts, and counts them', async () => {
    const { tomorrow, nextWeek } = bookings;
    const em = db.em();
    db.statements.length = 0;
    const first = await readStaffBookingPage(em, {}, { page: 1, perPage: 3 });
    expect(db.statements).toHaveLength(3);
    expect(first.total).toBe(4);
    expect(first.items.map((booking) => booking.id)).toEqual([tomorrow.id, ...byTie()]);
    expect(first.items[0].account.name).toBe('Dubois & Fontaine');
    // Read with the page, they are the request's entities: the desk's `account` field finds them without a statement.
    expect(await em.findOneOrFail(Account, { id: tomorrow.account.id })).toBe(first.items[0].account);
    expect(db.statements).toHaveLength(3);
    const second = await readStaffBookingPage(db.em(), {}, { page: 2, perPage: 3 });
    expect([second.items.map((booking) => booking.id), second.total]).toEqual([[nextWeek.id], 4]);
  });

  it("answers each booking as a partner's list does, paid or not", async () => {
    const paid = await insertBooking(
      db.em(),
      bookings.tomorrow.account,
      { scheduledAt: daysFromNow(-30), status: BookingStatus.CONFIRMED },
      { providerOrderId: 'PP-9', paidAt: new Date() },
    );
    const page = await readStaffBookingPage(db.em(), { to: daysFromNow(2) }, { page: 1, perPage: 5 });
    expect(page.items.map((booking) => booking.id)).toEqual([paid.id, bookings.tomorrow.id]);
    try {
      for (const { account, payment, ...answer } of page.items) {
        expect(account.id).toBe(bookings.tomorrow.account.id);
        const read = payment && paymentRead(payment);
        expect({ ...answer, payment: read }).toEqual((await readBooking(db.em(), account.id, answer.id))!.booking);
      }
      expect(page.items[0].payment).toBeInstanceOf(Payment);
      expect(page.items[0].payment).toMatchObject({ providerOrderId: 'PP-9', bookingId: paid.id });
      expect(page.items[1].payment).toBeNull();
    } finally {
      await db.em().nativeDelete(Payment, { bookingId: paid.id });
      await db.em().nativeDelete(Booking, { id: paid.id });
    }
  });

  it('filters by status, account and a window of start times (from inclusive, to exclusive)', async () => {
    const { tomorrow, tieA, nextWeek } = bookings;
    expect(await idsOf({ status: BookingStatus.CONFIRMED })).toEqual(byTie());
    expect(await idsOf({ accountId: tomorrow.account.id })).toEqual([tomorrow.id, nextWeek.id]);
    expect(await idsOf({ from: tieA.scheduledAt })).toEqual([...byTie(), nextWeek.id]);
    expect(await idsOf({ to: tieA.scheduledAt })).toEqual([tomorrow.id]);
    expect(
      await idsOf({ from: tomorrow.scheduledAt, to: nextWeek.scheduledAt, status: BookingStatus.REQUESTED }),
    ).toEqual([tomorrow.id]);
  });

  it("searches the number, the reference and the account's name, its wildcards taken literally", async () => {
    const { tomorrow, nextWeek } = bookings;
    expect(await idsOf({ search: 'deposition 1' })).toEqual([tomorrow.id]);
    expect(await idsOf({ search: nextWeek.number.slice(3) })).toEqual([nextWeek.id]);
    expect(await idsOf({ search: '50%' })).toEqual(byTie());
    expect(await idsOf({ search: 'g_d' })).toEqual([nextWeek.id]);
    expect(await idsOf({ search: '0%L' })).toEqual([]);
    expect(await idsOf({ search: 'fontaine', status: BookingStatus.REQUESTED })).toEqual([tomorrow.id, nextWeek.id]);
  });

  it('answers a search its total from the same statement, on every page and past the last', async () => {
    const search = { search: '50%' };
    const pages = await Promise.all(
      [1, 2, 3].map((page) => readStaffBookingPage(db.em(), search, { page, perPage: 1 })),
    );
    expect(pages.map((page) => [page.items.map((booking) => booking.id), page.total])).toEqual([
      [[byTie()[0]], 2],
      [[byTie()[1]], 2],
      [[], 2],
    ]);
    db.statements.length = 0;
    const none = await readStaffBookingPage(db.em(), { search: '0%L' }, { page: 1, perPage: 5 });
    expect([none.items, none.total, db.statements]).toEqual([[], 0, [expect.stringContaining('WITH hits')]]);
  });
});
