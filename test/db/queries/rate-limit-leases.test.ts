import { takeSharedLease } from '../../../src/domain/rate-limits/rate-limit-leases.queries';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

const windowAt = (minute: number) => new Date(Date.UTC(2026, 0, 1, 9, minute));
const rows = () =>
  db
    .em()
    .getConnection()
    .execute<{ bucket: string; hits: number }[]>(
      `SELECT bucket, window_start, hits FROM rate_limit_counts ORDER BY window_start`,
    );

it("adds to a bucket's shared count up to its ceiling, and answers null past it", async () => {
  expect(await takeSharedLease(db.em(), 'key:a', windowAt(0), 40, 100)).toBe(40);
  expect(await takeSharedLease(db.em(), 'key:a', windowAt(0), 60, 100)).toBe(100);
  expect(await takeSharedLease(db.em(), 'key:a', windowAt(0), 1, 100)).toBeNull();
  expect(await takeSharedLease(db.em(), 'key:b', windowAt(0), 1, 100)).toBe(1);
});

it('never lets two processes both take the last lease', async () => {
  const takes = await Promise.all(
    Array.from({ length: 8 }, () => takeSharedLease(db.em(), 'key:c', windowAt(0), 10, 50)),
  );
  expect(takes.filter((hits) => hits !== null).sort((a, b) => a - b)).toEqual([10, 20, 30, 40, 50]);
});

it('deletes the counts of ended windows as it takes a lease in a new one', async () => {
  await takeSharedLease(db.em(), 'key:a', windowAt(1), 5, 100);
  expect(await rows()).toEqual([expect.objectContaining({ bucket: 'key:a', hits: 5 })]);
});
