import { liveProcessIds } from '../../../src/db/live-processes';
import { ProcessClaim } from '../../../src/db/process-claim';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

it('answers the processes holding a claim on this database, and forgets one once its claim is released', async () => {
  const [first, second] = [await ProcessClaim.take(db.url), await ProcessClaim.take(db.url)];
  expect(await liveProcessIds(db.em())).toEqual(new Set([first.id, second.id]));
  await first.release();
  expect(await liveProcessIds(db.em())).toEqual(new Set([second.id]));
  await second.release();
  expect(await liveProcessIds(db.em())).toEqual(new Set());
});
