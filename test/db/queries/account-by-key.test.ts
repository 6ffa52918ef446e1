import {
  accountByKeyHashStatement,
  readAccountRowAndPolled,
  readAccountRowByKeyHash,
  type PolledRead,
} from '../../../src/domain/identity/account-by-key.queries';
import {
  bookingAnswerOf,
  bookingVersionOf,
  polledBookingOf,
  readBooking,
  readBookingVersion,
} from '../../../src/domain/bookings/polled-bookings.queries';
import {
  orderAnswerOf,
  orderVersionOf,
  polledOrderOf,
  readOrder,
  readOrderVersion,
} from '../../../src/domain/orders/polled-orders.queries';
import { Account, AccountStatus } from '../../../src/domain/identity/account.entity';
import { newId } from '../../../src/domain/shared/ids';
import { Booking, BookingStatus } from '../../../src/domain/bookings/booking.entity';
import { Interpreter, InterpreterQualification } from '../../../src/domain/bookings/interpreter.entity';
import { InterpretationMode } from '../../../src/domain/catalog/catalog.enums';
import { Payment } from '../../../src/domain/payments/payment.entity';
import { hashToken } from '../../../src/domain/shared/tokens';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount, insertBooking, insertOrder } from '../../helpers/rows';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

/** A suspended account holding the key of `keyHash`. */
const suspendedWithKey = (keyHash: string) =>
  insertAccount(db.em(), {
    apiKeyHash: keyHash,
    apiKeyLast4: '_key',
    status: AccountStatus.SUSPENDED,
    suspendedAt: new Date(),
  });

it('names every stored column of the account, so that the row hydrates a whole entity', () => {
  expect(accountByKeyHashStatement(db.em()).sql).toMatchSnapshot();
});

it('finds the account of a key hash as the entity path does, and nothing for an unknown hash', async () => {
  const keyHash = hashToken('ltk_test_key');
  const account = await suspendedWithKey(keyHash);
  const em = db.em();
  const row = await readAccountRowByKeyHash(em, keyHash);
  expect(em.map(Account, row!)).toEqual(await db.em().findOneOrFail(Account, { id: account.id }));
  expect(await readAccountRowByKeyHash(db.em(), hashToken('ltk_test_other'))).toBeUndefined();
});

describe("with what a poll reads, in the key's statement (D23)", () => {
  const keyHash = hashToken('ltk_test_polling_key');
  let account: Account;
  beforeAll(async () => {
    account = await insertAccount(db.em(), { apiKeyHash: keyHash, apiKeyLast4: '_key' });
  });

  it("reads the account's row as the plain look-up does, and the version of its booking or order", async () => {
    const booking = await insertBooking(db.em(), account, {}, {});
    const order = await insertOrder(db.em(), account);
    db.statements.length = 0;
    const found = await readAccountRowAndPolled(db.em(), keyHash, bookingPoll(booking.id));
    expect(db.statements).toHaveLength(1);
    expect(found).toEqual({
      row: await readAccountRowByKeyHash(db.em(), keyHash),
      version: await readBookingVersion(db.em(), account.id, booking.id),
    });
    expect((await readAccountRowAndPolled(db.em(), keyHash, orderPoll(order.id)))!.version).toBe(
      await readOrderVersion(db.em(), account.id, order.id),
    );
  });

  it("reads no version for another account's booking or an unknown one, and nothing for an unknown key", async () => {
    const theirs = await insertBooking(db.em(), await insertAccount(db.em()));
    expect((await readAccountRowAndPolled(db.em(), keyHash, bookingPoll(theirs.id)))!.version).toBeNull();
    expect((await readAccountRowAndPolled(db.em(), keyHash, orderPoll(newId())))!.version).toBeNull();
    expect(await readAccountRowAndPolled(db.em(), hashToken('ltk_test_other'), bookingPoll(theirs.id))).toBeUndefined();
  });

  it("reads the answer of an unconditional poll in the key's statement, as the polled read alone answers it", async () => {
    const booking = await insertBooking(db.em(), account, {}, {});
    const order = await insertOrder(db.em(), account);
    db.statements.length = 0;
    const found = await readAccountRowAndPolled(db.em(), keyHash, bookingPoll(booking.id, 'answer'));
    expect(db.statements).toHaveLength(1);
    expect(found!.row).toEqual(await readAccountRowByKeyHash(db.em(), keyHash));
    expect(found!.version).toBeUndefined();
    expect(polledBookingOf(found!.answer!.row, found!.answer!.date)).toEqual(
      await readBooking(db.em(), account.id, booking.id),
    );
    const withOrder = await readAccountRowAndPolled(db.em(), keyHash, orderPoll(order.id, 'answer'));
    expect(polledOrderOf(withOrder!.answer!.row, withOrder!.answer!.date)).toEqual(
      await readOrder(db.em(), account.id, order.id),
    );
  });

  it('reads an interpreter on record and an overtime paid by card alike, as one JSON row', async () => {
    const em = db.em();
    const interpreter = em.create(Interpreter, {
      name: 'Ana Ruiz',
      email: `ana-${newId()}@interpreters.test`,
      languages: ['es', 'en'],
      modes: [InterpretationMode.VIDEO_REMOTE],
      qualifications: [InterpreterQualification.COURT_CERTIFIED],
      credentials: null,
      active: true,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await em.flush();
    const booking = await insertBooking(
      db.em(),
      account,
      {
        status: BookingStatus.COMPLETED,
        interpreter,
        actualHundredths: 275,
        overtimeHundredths: 75,
        overtimeCents: 6750,
      },
      { paidAt: new Date('2026-11-20T10:00:00.123Z') },
    );
    const overtime = Object.assign(new Payment(), {
      provider: 'sandbox',
      description: 'Overtime',
      amountCents: 6750,
      currency: 'USD',
      paidAt: new Date('2026-11-21T09:15:00.456Z'),
    });
    overtime.owner = { type: 'booking', id: booking.id };
    await db.em().persist(overtime).flush();
    await db.em().nativeUpdate(Booking, { id: booking.id }, { overtimePayment: overtime.id });
    const found = await readAccountRowAndPolled(db.em(), keyHash, bookingPoll(booking.id, 'answer'));
    const alone = await readBooking(db.em(), account.id, booking.id);
    expect(alone!.booking.interpreter).toEqual({
      name: 'Ana Ruiz',
      qualifications: [InterpreterQualification.COURT_CERTIFIED],
    });
    expect(JSON.stringify(alone)).toContain('2026-11-21T09:15:00.456Z'); // the overtime's payment, read with it
    expect(polledBookingOf(found!.answer!.row, found!.answer!.date)).toEqual(alone);
  });

  it('reads no answer of an account that is not approved: it is refused before it is served', async () => {
    const suspendedHash = hashToken('ltk_test_suspended_polling_key');
    const suspended = await suspendedWithKey(suspendedHash);
    const order = await insertOrder(db.em(), suspended);
    const found = await readAccountRowAndPolled(db.em(), suspendedHash, orderPoll(order.id, 'answer'));
    expect(found!.row.status).toBe(AccountStatus.SUSPENDED);
    expect(found!.answer).toBeNull();
  });

  it("reads no answer for another account's order or an unknown one", async () => {
    const theirs = await insertOrder(db.em(), await insertAccount(db.em()));
    expect((await readAccountRowAndPolled(db.em(), keyHash, orderPoll(theirs.id, 'answer')))!.answer).toBeNull();
    expect((await readAccountRowAndPolled(db.em(), keyHash, bookingPoll(newId(), 'answer')))!.answer).toBeNull();
  });
});

const bookingPoll = (id: string, reads: PolledRead['reads'] = 'version'): PolledRead => ({
  name: 'booking',
  id,
  reads,
  versionOf: bookingVersionOf,
  answerOf: bookingAnswerOf,
});
const orderPoll = (id: string, reads: PolledRead['reads'] = 'version'): PolledRead => ({
  name: 'order',
  id,
  reads,
  versionOf: orderVersionOf,
  answerOf: orderAnswerOf,
});
