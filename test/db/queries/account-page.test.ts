import { accountPageStatement, readAccountPage } from '../../../src/domain/shared/account-page.queries';
import { BOOKING_LIST } from '../../../src/domain/bookings/polled-bookings.queries';
import { ORDER_LIST } from '../../../src/domain/orders/polled-orders.queries';
import type { Account } from '../../../src/domain/identity/account.entity';
import { BookingStatus, type Booking } from '../../../src/domain/bookings/booking.entity';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount, insertBooking } from '../../helpers/rows';

let db: QueryDatabase;
let account: Account;
/** Seven bookings, one a minute; every third confirmed, and each changed in the opposite order to its creation. */
let bookings: Booking[];
beforeAll(async () => {
  db = await openQueryDatabase();
  account = await insertAccount(db.em());
  await insertBooking(db.em(), await insertAccount(db.em()));
  bookings = [];
  for (let i = 0; i < 7; i++) {
    const status = i % 3 === 0 ? BookingStatus.CONFIRMED : BookingStatus.REQUESTED;
    bookings.push(await insertBooking(db.em(), account, { status, createdAt: at(i), updatedAt: at(20 - i) }));
  }
});
afterAll(() => db.close());

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 9, minute));
const ids = (list: Booking[]) => list.map((booking) => booking.id);
const idOf = (row: Record<string, unknown>) => row.id as string;

/** Every page of `perPage`, first to last, as `readAccountPage` reads them. */
async function allPages(
  filter: Parameters<typeof readAccountPage>[3],
  perPage: number,
): Promise<{ ids: string[]; totals: number[] }> {
  const pages = [];
  for (let page = 1; page <= 4; page++)
    pages.push(await readAccountPage(db.em(), BOOKING_LIST, account.id, filter, { page, perPage }, idOf));
  return { ids: pages.flatMap((page) => page.items), totals: pages.map((page) => page.total) };
}

it('writes one statement for each combination of filters, only the filters given', () => {
  const filters = [{}, { status: 'confirmed' }, { updatedSince: at(0) }, { status: 'confirmed', updatedSince: at(0) }];
  const statements = filters.map((filter) => accountPageStatement(BOOKING_LIST, filter));
  expect(statements.map(({ statement }) => statement.name)).toEqual([
    'booking_page',
    'booking_page_status',
    'booking_page_since',
    'booking_page_status_since',
  ]);
  expect(statements.map(({ params }) => params)).toEqual([[], ['confirmed'], [at(0)], ['confirmed', at(0)]]);
  for (const { statement } of statements) expect(statement.sql).toMatchSnapshot(statement.name);
  // An order list reads its total from the counts, but with `updated_since`.
  for (const filter of filters) {
    const { statement } = accountPageStatement(ORDER_LIST, filter);
    expect(statement.sql).toMatchSnapshot(statement.name);
  }
});

it('reads every page newest first, those in the second half from the other end, with the exact total', async () => {
  const newestFirst = ids([...bookings].reverse());
  expect(await allPages({}, 2)).toEqual({ ids: newestFirst, totals: [7, 7, 7, 7] });
  expect(await allPages({}, 3)).toEqual({ ids: newestFirst, totals: [7, 7, 7, 7] });
});

it('filters by status, and by changes since a time, oldest change first', async () => {
  const confirmed = bookings.filter((booking) => booking.status === BookingStatus.CONFIRMED);
  expect(await allPages({ status: BookingStatus.CONFIRMED }, 2)).toEqual({
    ids: ids([...confirmed].reverse()),
    totals: [3, 3, 3, 3],
  });
  // Changed at 20 - i: since minute 16, bookings 4, 3, 2, 1, 0, their oldest change (the last made) first.
  expect(await allPages({ updatedSince: at(16) }, 2)).toEqual({
    ids: ids(bookings.slice(0, 5).reverse()),
    totals: [5, 5, 5, 5],
  });
  expect(await allPages({ status: BookingStatus.CONFIRMED, updatedSince: at(16) }, 1)).toEqual({
    ids: ids([bookings[3], bookings[0]]),
    totals: [2, 2, 2, 2],
  });
});

it('gives a page a version that moves when one of its rows changes, and only then', async () => {
  const read = () => readAccountPage(db.em(), BOOKING_LIST, account.id, {}, { page: 1, perPage: 2 }, idOf);
  const first = await read();
  expect((await read()).version).toBe(first.version);
  await db.em().nativeUpdate('Booking', { id: bookings[0].id }, { holdReason: 'not on this page' });
  expect((await read()).version).toBe(first.version);
  await db.em().nativeUpdate('Booking', { id: bookings[6].id }, { holdReason: 'on this page' });
  expect((await read()).version).not.toBe(first.version);
});
