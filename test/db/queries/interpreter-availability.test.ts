import { expect } from '@jest/globals';
import { interpreterIsBusy, readInterpreterPage } from '../../../src/domain/bookings/interpreter-availability.queries';
import { newId } from '../../../src/domain/shared/ids';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount } from '../../helpers/rows';

/**
 * D32's search and overlap check on years of bookings: 40 interpreters, each with a booking every 6 hours for five
 * years (292,000 bookings, most completed), planned and run with the statistics PostgreSQL would have.
 */
let db: QueryDatabase;
const interpreters: string[] = [];
const FIRST = Date.UTC(2026, 0, 1);
const EVERY_MS = 6 * 3600_000;

beforeAll(async () => {
  db = await openQueryDatabase();
  const account = await insertAccount(db.em());
  const sql = (text: string, params: unknown[] = []) => db.em().getConnection().execute(text, params, 'run');
  for (let i = 0; i < 40; i++) interpreters.push(newId());
  await sql(
    `INSERT INTO interpreters (id, name, email, languages, modes, qualifications, active, created_at, updated_at)
     SELECT id::uuid, 'Interpreter ' || n, 'i' || n || '@interpreters.test', '{es,en}', '{video_remote}',
            CASE WHEN n % 2 = 0 THEN '{COURT_CERTIFIED}'::text[] ELSE '{}'::text[] END, true, now(), now()
     FROM unnest(?::text[]) WITH ORDINALITY AS i(id, n)`,
    [`{${interpreters.join(',')}}`],
  );
  // Each interpreter's bookings: two hours every six, past ones completed, future ones confirmed.
  await sql(
    `INSERT INTO interpretation_bookings (id, number, account_id, status, source_language, target_language, mode, setting,
       scheduled_at, duration_hundredths, billable_hundredths, unit_price_cents, total_cents, currency, placed_by,
       interpreter_id, created_at, updated_at)
     SELECT gen_random_uuid(), 'B-' || i.n || '-' || s, ?, CASE WHEN at < now() THEN 'completed' ELSE 'confirmed' END,
       'es', 'en', 'video_remote', 'other', at, 200, 200, 8500, 17000, 'USD', '{"kind": "api_key", "member": null}',
       i.id::uuid, now(), now()
     FROM unnest(?::text[]) WITH ORDINALITY AS i(id, n), generate_series(0, 7299) AS s,
       LATERAL (SELECT to_timestamp(? + s * ? + i.n * 60) AS at) t`,
    [account.id, `{${interpreters.join(',')}}`, FIRST / 1000, EVERY_MS / 1000],
  );
  await sql('ANALYZE interpreters');
  await sql('ANALYZE interpretation_bookings');
}, 120_000);
afterAll(() => db.close());

/** The plan and timing of the last statement the ORM ran, as PostgreSQL runs it. */
async function explainLast(): Promise<string> {
  const statement = db.statements[db.statements.length - 1];
  const rows = await db
    .em()
    .getConnection()
    .execute<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, BUFFERS) ${statement}`);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** The first six-hour step of the grid at least 30 days ahead: every interpreter's booking there is confirmed. */
const ahead = () => new Date(FIRST + Math.ceil((Date.now() + 30 * 86400_000 - FIRST) / EVERY_MS) * EVERY_MS);

it('checks one interpreter for overlaps through the busy index, reading only the bookings around the slot', async () => {
  // Interpreter 1's booking there starts a minute past the step.
  const aligned = new Date(ahead().getTime() + 60_000);
  const inside = { start: new Date(aligned.getTime() + 3600_000), durationHundredths: 100 };
  expect(await interpreterIsBusy(db.em(), interpreters[0], inside, newId())).toBe(true);
  const plan = await explainLast();
  expect(plan).toMatch(/Index (Only )?Scan using interpretation_bookings_interpreter_busy/);
  expect(plan).not.toMatch(/Seq Scan on interpretation_bookings/);
  const gap = { start: new Date(aligned.getTime() + 3 * 3600_000), durationHundredths: 50 };
  expect(await interpreterIsBusy(db.em(), interpreters[0], gap, newId())).toBe(false);
});

it('finds who is free at a time among all interpreters reading only the bookings near it, a page and its total at once', async () => {
  const start = ahead();
  // Interpreter n's booking runs from n minutes past the step for 2 hours: a slot 3 hours past it is 30 minutes clear
  // of those that end by 2 h 30 min, interpreters 1 to 30, and of everyone's next booking, 6 hours past the step.
  const freeAt = { start: new Date(start.getTime() + 3 * 3600_000), durationHundredths: 100 };
  const page = await readInterpreterPage(
    db.em(),
    { languages: ['es'], qualifications: [], freeAt },
    { page: 1, perPage: 100 },
  );
  expect(page.total).toBe(30);
  // The planner may probe the busy index per interpreter or read the window of starts once (an index on the start
  // time): either way it reads the bookings around the slot, not the years of them.
  const plan = await explainLast();
  expect(plan).not.toMatch(/Seq Scan on interpretation_bookings/);
  expect(Number(/Buffers: shared hit=(\d+)/.exec(plan)![1])).toBeLessThan(1000);
  const court = await readInterpreterPage(
    db.em(),
    { languages: ['es'], qualifications: ['COURT_CERTIFIED'], freeAt },
    { page: 2, perPage: 10 },
  );
  expect(court).toMatchObject({ total: 15, page: 2 });
  expect(court.items).toHaveLength(5);
});
