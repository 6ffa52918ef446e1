import { Client } from 'pg';
import { lockSignInLimits } from '../../../src/domain/sign-in/sign-in-limit-locks.queries';
import { pollUntil } from '../../helpers/poll';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';

let db: QueryDatabase;
let observer: Client;
beforeAll(async () => {
  db = await openQueryDatabase();
  observer = new Client({ connectionString: db.url });
  await observer.connect();
});
afterAll(async () => {
  await observer.end();
  await db.close();
});

/** Runs `lockSignInLimits` in a transaction that holds its locks until `release` is called. */
function holder(email: string, address: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked = false;
  const done = db.em().transactional(async (em) => {
    await lockSignInLimits(em, email, address);
    locked = true;
    await released;
  });
  return { done, release, locked: () => locked };
}

/**
 * The transactions of this test's database waiting for an advisory lock now, read on a connection of its own (the
 * holders may take the whole pool): a waiter is seen waiting, not assumed to be after a sleep.
 */
const waiting = async () =>
  Number(
    (
      await observer.query<{ n: string }>(
        `select count(*) as n from pg_locks l join pg_database d on d.oid = l.database
          where d.datname = current_database() and l.locktype = 'advisory' and not l.granted`,
      )
    ).rows[0].n,
  );

/** Waits until `holders` hold their locks and `waiters` transactions wait for one. */
const until = (holders: (() => boolean)[], waiters: number) =>
  pollUntil(
    async () => ({ held: holders.every((locked) => locked()), waiting: await waiting() }),
    (state) => state.held && state.waiting === waiters,
    { intervalMs: 20, failure: (state) => `locks: ${JSON.stringify(state)}, wanted ${waiters} waiting` },
  );

it('makes a second request for the same e-mail or the same address wait for the first transaction', async () => {
  const first = holder('pat@example.test', '203.0.113.1');
  await until([first.locked], 0);
  const sameEmail = holder('pat@example.test', '203.0.113.2');
  const sameAddress = holder('kim@example.test', '203.0.113.1');
  const other = holder('lee@example.test', '203.0.113.3');
  await until([first.locked, other.locked], 2);
  expect([first.locked(), sameEmail.locked(), sameAddress.locked(), other.locked()]).toEqual([
    true,
    false,
    false,
    true,
  ]);
  first.release();
  other.release();
  await Promise.all([first.done, other.done]);
  await until([sameEmail.locked, sameAddress.locked], 0);
  // The two waiters share nothing with each other: both now hold theirs.
  expect([sameEmail.locked(), sameAddress.locked()]).toEqual([true, true]);
  sameEmail.release();
  sameAddress.release();
  await Promise.all([sameEmail.done, sameAddress.done]);
});
