import { lockSignInLimits } from '../../../src/db/queries/sign-in-limit-locks';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

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

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

it('makes a second request for the same e-mail or the same address wait for the first transaction', async () => {
  const first = holder('pat@example.test', '203.0.113.1');
  await settle();
  const sameEmail = holder('pat@example.test', '203.0.113.2');
  const sameAddress = holder('kim@example.test', '203.0.113.1');
  const other = holder('lee@example.test', '203.0.113.3');
  await settle();
  expect([first.locked(), sameEmail.locked(), sameAddress.locked(), other.locked()]).toEqual([
    true,
    false,
    false,
    true,
  ]);
  first.release();
  other.release();
  await Promise.all([first.done, other.done]);
  await settle();
  // The two waiters share nothing with each other: both now hold theirs.
  expect([sameEmail.locked(), sameAddress.locked()]).toEqual([true, true]);
  sameEmail.release();
  sameAddress.release();
  await Promise.all([sameEmail.done, sameAddress.done]);
});
