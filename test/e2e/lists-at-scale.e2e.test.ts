import {
  InterpretationBookingsChangedSinceDocument,
  OrdersChangedSinceDocument,
  StaffOrderSearchDocument,
  type StaffOrderSearchQueryVariables,
} from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The query shapes of docs/architecture.md "Lists at scale": each list's order with its tie-break, its filters
 * alone and combined, pages read from either end, `updated_since` at its boundaries (D23), and the statements a
 * list request runs. Rows are made through the doors, then their times and states are set in SQL, as years would.
 */
let t: TestApp;
let staff: string;
let alice: TestAccount;
let bob: TestAccount;
let orders: string[];
const statements = new StatementLog();

const sql = (statement: string, params: unknown[] = []) =>
  t.orm.em.fork().getConnection().execute<Record<string, string>[]>(statement, params);
const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));

beforeAll(async () => {
  t = await startTestApp({ workers: false, onQuery: statements.record });
  staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
  bob = await createApprovedAccount(t, staff);
  const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(40)] }), 'a.docx')).id;
  orders = [];
  for (let i = 0; i < 7; i++) {
    const quote = (
      await t.rest
        .post(
          '/api/v1/quotes',
          {
            source_language: 'es',
            target_language: 'en',
            service_type: 'standard',
            file_ids: [source],
            reference: `Matter ${i}`,
          },
          alice.key,
        )
        .expect(201)
    ).body.data;
    orders.push(
      (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201)).body.data.id,
    );
  }
  // Created one a minute, but orders 2 to 4 in the same instant: their tie is broken by id.
  for (const [i, id] of orders.entries())
    await sql(`UPDATE orders SET created_at = ?, updated_at = ? WHERE id = ?`, [
      at(i >= 2 && i <= 4 ? 2 : i),
      at(10 + i),
      id,
    ]);
});
afterAll(() => t.close());

/** The ids as the list must give them: by `key` descending, then id descending. */
async function expected(where: string, params: unknown[], order: string): Promise<string[]> {
  return (
    await sql(`SELECT id FROM orders WHERE account_id = ? AND ${where} ORDER BY ${order}`, [alice.id, ...params])
  ).map((row) => row.id);
}

async function pages(
  path: string,
  perPage: number,
  key = alice.key,
): Promise<{ ids: string[]; totals: number[]; lastPages: number[] }> {
  const first = (await t.rest.get(`${path}${path.includes('?') ? '&' : '?'}per_page=${perPage}`, key).expect(200)).body;
  const ids: string[] = [];
  const totals: number[] = [];
  const lastPages: number[] = [];
  for (let page = 1; page <= first.meta.last_page + 1; page++) {
    const body = (
      await t.rest.get(`${path}${path.includes('?') ? '&' : '?'}per_page=${perPage}&page=${page}`, key).expect(200)
    ).body;
    ids.push(...body.data.map((item: { id: string }) => item.id));
    totals.push(body.meta.total);
    lastPages.push(body.meta.last_page);
  }
  return { ids, totals, lastPages };
}

describe("an account's orders (D3)", () => {
  it('are newest first, ties broken by id, every page the same whichever end it is read from, and a page past the end empty', async () => {
    const all = await expected('true', [], 'created_at DESC, id DESC');
    expect(all).toHaveLength(7);
    for (const perPage of [1, 2, 3, 7, 100]) {
      const read = await pages('/api/v1/orders', perPage);
      expect(read.ids).toEqual(all);
      expect(new Set(read.totals)).toEqual(new Set([7]));
      expect(new Set(read.lastPages)).toEqual(new Set([Math.ceil(7 / perPage)]));
    }
  });

  it("filter by status with the same order, and never show another account's", async () => {
    await sql(`UPDATE orders SET status = 'cancelled', cancelled_at = now() WHERE id IN (?, ?, ?)`, [
      orders[1],
      orders[3],
      orders[4],
    ]);
    const cancelled = await expected(`status = 'cancelled'`, [], 'created_at DESC, id DESC');
    expect(cancelled).toHaveLength(3);
    expect((await pages('/api/v1/orders?status=cancelled', 2)).ids).toEqual(cancelled);
    expect((await pages('/api/v1/orders?status=pending_payment', 3)).ids).toEqual(
      await expected(`status = 'pending_payment'`, [], 'created_at DESC, id DESC'),
    );
    expect((await t.rest.get('/api/v1/orders', bob.key).expect(200)).body).toMatchObject({
      data: [],
      meta: { total: 0, last_page: 1 },
    });
    await sql(`UPDATE orders SET status = 'pending_payment', cancelled_at = NULL WHERE account_id = ?`, [alice.id]);
  });

  it('run one statement after the key look-up, whatever the page, and a 304 the same one (D23)', async () => {
    for (const path of [
      '/api/v1/orders?per_page=2&page=4',
      '/api/v1/orders?status=pending_payment',
      '/api/v1/orders?updated_since=2026-01-01T12:12:00Z',
      '/api/v1/interpretation-bookings',
    ]) {
      const full = await t.rest.get(path, alice.key).expect(200);
      expect(statements.of(full)).toHaveLength(2);
      expect(
        statements.of(await t.rest.get(path, alice.key).set('If-None-Match', full.headers.etag).expect(304)),
      ).toHaveLength(2);
    }
  });
});

describe('updated_since (D23)', () => {
  it('answers the orders changed at or after it, oldest change first, ties broken by id', async () => {
    await sql(`UPDATE orders SET updated_at = ? WHERE id IN (?, ?)`, [at(15), orders[5], orders[6]]);
    const since = (await pages('/api/v1/orders?updated_since=2026-01-01T12:13:00Z', 2)).ids;
    expect(since).toEqual(await expected('updated_at >= ?', [at(13)], 'updated_at ASC, id ASC'));
    expect(since.slice(0, 2)).toEqual([orders[3], orders[4]]);
    expect(since.slice(2).sort()).toEqual([orders[5], orders[6]].sort());
    // The boundary is inclusive, to the millisecond; an offset names the same instant.
    expect((await pages('/api/v1/orders?updated_since=2026-01-01T12:15:00.000Z', 5)).ids.sort()).toEqual(
      [orders[5], orders[6]].sort(),
    );
    expect((await pages('/api/v1/orders?updated_since=2026-01-01T07:15:00.001-05:00', 5)).ids).toEqual([]);
    expect((await pages('/api/v1/orders?updated_since=2026-01-01T12:14:59.999Z', 5)).ids.sort()).toEqual(
      [orders[5], orders[6]].sort(),
    );
  });

  it('combines with status, and answers the same on GraphQL', async () => {
    await sql(`UPDATE orders SET status = 'cancelled' WHERE id = ?`, [orders[5]]);
    expect((await pages('/api/v1/orders?updated_since=2026-01-01T12:13:00Z&status=cancelled', 1)).ids).toEqual([
      orders[5],
    ]);
    const { data, errors } = await t.gql(
      OrdersChangedSinceDocument,
      { updatedSince: '2026-01-01T07:13:00-05:00', perPage: 3, page: 2 },
      alice.key,
    );
    expect(errors).toBeUndefined();
    expect(data!.orders.items.map((item) => item.id)).toEqual(
      (await expected('updated_at >= ?', [at(13)], 'updated_at ASC, id ASC')).slice(3),
    );
    expect(data!.orders.pageInfo).toEqual({ total: 4, lastPage: 2 });
    await sql(`UPDATE orders SET status = 'pending_payment' WHERE id = ?`, [orders[5]]);
  });

  it('refuses a time that is not one, on both doors', async () => {
    const refused = await t.rest.get('/api/v1/orders?updated_since=2026-02-30T00:00:00Z', alice.key).expect(422);
    expect(refused.body.errors.updated_since).toBeDefined();
    await t.rest.get('/api/v1/interpretation-bookings?updated_since=yesterday', alice.key).expect(422);
    const { errors } = await t.gql(OrdersChangedSinceDocument, { updatedSince: '2026-01-01T12:00:00' }, alice.key);
    expect(errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    // Written in 9999 with an offset, it falls in 10000 in UTC: said so, never a 500 (D25).
    const past = '9999-12-31T23:30:00-12:00';
    const outside = await t.rest.get(`/api/v1/orders?updated_since=${encodeURIComponent(past)}`, alice.key).expect(422);
    expect(outside.body.errors).toEqual({
      updated_since: ['The updated since field must fall between the years 0001 and 9999 in UTC.'],
    });
    const scalar = await t.gql(OrdersChangedSinceDocument, { updatedSince: past }, alice.key);
    expect(scalar.errors?.[0]?.message).toContain('must fall between the years 0001 and 9999 in UTC');
    expect(scalar.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('works alike for bookings: at or after, oldest change first, with status, on both doors', async () => {
    const bookings: string[] = [];
    for (let i = 0; i < 3; i++) {
      const body = {
        source_language: 'es',
        target_language: 'en',
        mode: 'video_remote',
        scheduled_at: '2030-12-01T09:30:00Z',
        duration_hours: 2,
      };
      bookings.push((await t.rest.post('/api/v1/interpretation-bookings', body, alice.key).expect(201)).body.data.id);
    }
    for (const [i, id] of bookings.entries())
      await sql(`UPDATE interpretation_bookings SET updated_at = ? WHERE id = ?`, [at(20 + (i === 2 ? 1 : i)), id]);
    const rest = (
      await t.rest.get('/api/v1/interpretation-bookings?updated_since=2026-01-01T12:21:00Z', alice.key).expect(200)
    ).body;
    expect(rest.data.map((item: { id: string }) => item.id)).toEqual([bookings[1], bookings[2]].sort());
    expect(rest.meta.total).toBe(2);
    const { data } = await t.gql(
      InterpretationBookingsChangedSinceDocument,
      { updatedSince: '2026-01-01T12:20:00Z', status: 'REQUESTED', perPage: 1, page: 3 },
      alice.key,
    );
    expect(data!.interpretationBookings.items.map((item) => item.id)).toEqual([[bookings[1], bookings[2]].sort()[1]]);
    expect(data!.interpretationBookings.pageInfo).toEqual({ total: 3, lastPage: 3 });
  });
});

describe("the desk's queue (G4, G5)", () => {
  const desk = async (variables: StaffOrderSearchQueryVariables) => {
    const { data, errors } = await t.gql(StaffOrderSearchDocument, { perPage: 100, ...variables }, staff);
    expect(errors).toBeUndefined();
    return { ids: data!.staffOrders.items.map((item) => item.id), total: data!.staffOrders.pageInfo.total };
  };
  const sorted = async (where: string, params: unknown[] = []) =>
    (
      await sql(
        `SELECT o.id FROM orders o JOIN accounts a ON a.id = o.account_id WHERE ${where} ORDER BY o.due_at ASC NULLS LAST, o.created_at ASC, o.id ASC`,
        params,
      )
    ).map((row) => row.id);

  beforeAll(async () => {
    // Due in the past (two at the same instant), due later, and one of the overdue ones finished.
    const past = new Date(Date.now() - 3_600_000);
    await sql(`UPDATE orders SET status = 'processing', due_at = ? WHERE id IN (?, ?, ?)`, [
      past,
      orders[0],
      orders[2],
      orders[3],
    ]);
    await sql(`UPDATE orders SET status = 'in_review', due_at = ? WHERE id = ?`, [
      new Date(Date.now() - 7_200_000),
      orders[1],
    ]);
    await sql(`UPDATE orders SET status = 'in_review', due_at = ? WHERE id = ?`, [
      new Date(Date.now() + 3_600_000),
      orders[4],
    ]);
    await sql(`UPDATE orders SET status = 'completed', due_at = ?, completed_at = now() WHERE id = ?`, [
      past,
      orders[5],
    ]);
  });

  it('lists overdue work soonest due first, ties broken by creation then id, with its total', async () => {
    const overdue = await desk({ overdue: true });
    expect(overdue.ids).toEqual(await sorted(`o.due_at < now() AND o.status NOT IN ('completed', 'cancelled')`));
    expect(overdue.ids).toEqual([orders[1], orders[0], ...[orders[2], orders[3]].sort()]);
    expect(overdue.total).toBe(4);
    expect((await desk({ overdue: true, status: 'IN_REVIEW' })).ids).toEqual([orders[1]]);
    expect((await desk({ overdue: true, status: 'COMPLETED' })).ids).toEqual([orders[5]]);
    const paged = await t.gql(StaffOrderSearchDocument, { overdue: true, perPage: 3, page: 2 }, staff);
    expect(paged.data!.staffOrders.items.map((item) => item.id)).toEqual(overdue.ids.slice(3));
  });

  it('filters by status alone, nulls last', async () => {
    expect((await desk({ status: 'IN_REVIEW' })).ids).toEqual([orders[1], orders[4]]);
    expect((await desk({})).ids).toEqual(await sorted('true'));
  });

  it('searches the number, the reference and the account name, with the other filters', async () => {
    const number = (await sql(`SELECT number FROM orders WHERE id = ?`, [orders[6]]))[0].number;
    expect((await desk({ search: number.slice(-6).toLowerCase() })).ids).toEqual([orders[6]]);
    expect((await desk({ search: 'matter 3' })).ids).toEqual([orders[3]]);
    const name = (await sql(`SELECT name FROM accounts WHERE id = ?`, [alice.id]))[0].name;
    const byName = await desk({ search: name });
    expect(byName.ids).toEqual(await sorted('a.id = ?', [alice.id]));
    expect(byName.total).toBe(7);
    expect((await desk({ search: name, status: 'IN_REVIEW', overdue: true })).ids).toEqual([orders[1]]);
    expect((await desk({ search: '100%_' })).total).toBe(0);
  });

  it('runs three statements after the token look-up, two for a search, whatever the filters', async () => {
    for (const variables of [{ overdue: true }, { status: 'IN_REVIEW' }, { search: 'Matter' }]) {
      const response = await t.rest
        .raw()
        .post('/graphql')
        .set('authorization', `Bearer ${staff}`)
        .send({
          query:
            'query($o: Boolean, $s: OrderStatus, $q: String) { staffOrders(overdue: $o, status: $s, search: $q) { items { id account { name } } pageInfo { total } } }',
          variables: { o: variables.overdue, s: variables.status, q: variables.search },
        });
      expect(response.body.errors).toBeUndefined();
      expect(statements.of(response)).toHaveLength(variables.search ? 3 : 4);
    }
  });
});
