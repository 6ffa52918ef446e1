import type { Client } from 'pg';
import { ORDER_COUNT_FOLD } from '../src/domain/orders/order-counts.queries';

/** The database of issue 25 at `scale` 1: what a busy operator holds after a few years. */
export interface Shape {
  accounts: number;
  orders: number;
  /** Of `orders`, the one integrator's (the seeded account, whose key the benchmark polls with). */
  integratorOrders: number;
  bookings: number;
}

export const shapeOf = (scale: number): Shape => ({
  accounts: Math.max(2, Math.round(10_000 * scale)),
  orders: Math.round(1_020_000 * scale),
  integratorOrders: Math.round(20_000 * scale),
  bookings: Math.round(102_000 * scale),
});

/** The tables grown, whose indexes are built after their rows. */
const GROWN = [
  'accounts',
  'payments',
  'quotes',
  'orders',
  'file_attachments',
  'interpretation_bookings',
  'audit_entries',
];

const ALPHANUMERICS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * SQL for the 6 alphanumerics of a reference number (order-number.ts) made from the integer `n`: n times a prime
 * modulo 36^6 is a permutation, so every n below 36^6 gets its own code, and neighbours do not look alike.
 */
const codeOf = (n: string) =>
  Array.from(
    { length: 6 },
    (_, i) =>
      `substr('${ALPHANUMERICS}', ((((${n})::bigint * 1000003) % 2176782336) / ${36 ** (5 - i)} % 36)::int + 1, 1)`,
  ).join(' || ');

/** `<prefix>-<YYMM>-<code>`, the prefix taken from the template's own number. */
const numberOf = (template: string, n: string, at: string) =>
  `split_part(${template}, '-', 1) || '-' || to_char(${at}, 'YYMM') || '-' || ${codeOf(n)}`;

/** Surnames for firm names: a search for one finds a few firms, as a desk's search for a client does. */
const SURNAMES = [
  'Abbott',
  'Baptiste',
  'Castellanos',
  'Dubois',
  'Eriksen',
  'Fontaine',
  'Garrido',
  'Hartmann',
  'Iglesias',
  'Jansen',
  'Kowalski',
  'Lindqvist',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Quintero',
  'Rasmussen',
  'Schneider',
  'Takahashi',
  'Urquhart',
  'Valente',
  'Whitfield',
  'Xavier',
  'Yilmaz',
  'Zielinski',
  'Achterberg',
  'Bellamy',
  'Carvalho',
  'Delacroix',
  'Esposito',
  'Fitzgerald',
];

/**
 * Statuses by age: a month of work in every state, older work finished (a few stuck on the desk), and the
 * integrator with a quarter of its orders still open (issue 25: 5,000 open orders at scale 1).
 */
const ORDER_STATUS = `CASE
  WHEN p.integrator AND p.r < 0.25 THEN (ARRAY['pending_payment', 'processing', 'in_review', 'on_hold'])[1 + p.g % 4]
  WHEN p.created_at > now() - interval '30 days' THEN CASE WHEN p.r < 0.15 THEN 'pending_payment' WHEN p.r < 0.35 THEN 'processing'
    WHEN p.r < 0.6 THEN 'in_review' WHEN p.r < 0.7 THEN 'on_hold' WHEN p.r < 0.95 THEN 'completed' ELSE 'cancelled' END
  WHEN p.r < 0.01 THEN (ARRAY['processing', 'in_review', 'on_hold'])[1 + p.g % 3]
  WHEN p.r < 0.09 THEN 'cancelled'
  ELSE 'completed' END`;

const BOOKING_STATUS = `CASE
  WHEN p.scheduled_at > now() THEN (ARRAY['requested', 'awaiting_payment', 'confirmed', 'confirmed', 'on_hold'])[1 + p.g % 5]
  WHEN p.r < 0.1 THEN 'cancelled'
  ELSE 'completed' END`;

const finished = (alias: string, status: string, at: string) =>
  `CASE WHEN ${alias}.status = '${status}' THEN ${at} END`;

/** An order's columns for the status and creation time `alias` gives it: due 48 hours after, finished within two days. */
const orderState = (alias: string): Record<string, string> => ({
  status: `${alias}.status`,
  held_from: `CASE WHEN ${alias}.status = 'on_hold' THEN 'processing' END`,
  hold_reason: `CASE WHEN ${alias}.status = 'on_hold' THEN 'Page 2 of the source is unreadable; please send a clearer scan.' END`,
  due_at: `CASE WHEN ${alias}.status <> 'pending_payment' THEN ${alias}.created_at + interval '48 hours' END`,
  completed_at: finished(alias, 'completed', `${alias}.created_at + interval '40 hours'`),
  cancelled_at: finished(alias, 'cancelled', `${alias}.created_at + interval '2 hours'`),
  created_at: `${alias}.created_at`,
  updated_at: `CASE ${alias}.status WHEN 'completed' THEN ${alias}.created_at + interval '40 hours' WHEN 'cancelled' THEN ${alias}.created_at + interval '2 hours' ELSE ${alias}.created_at + interval '1 hour' END`,
});

/**
 * The seeded orders, a year of one integrator's work: spread over the year and put in the states of ORDER_STATUS, so
 * that the small database has the desk's queues too (open, in review, overdue) and compares like with like.
 */
export async function age(db: Client): Promise<void> {
  const state = orderState('a');
  await db.query(`UPDATE orders o SET ${Object.entries(state)
    .map(([column, value]) => `${column} = ${value}`)
    .join(', ')}
    FROM (SELECT p.id, p.created_at, ${ORDER_STATUS} AS status
            FROM (SELECT id, (row_number() OVER (ORDER BY created_at, id))::int AS g, true AS integrator, random() AS r,
                         now() - random() * interval '1 year' AS created_at FROM orders) p) a
   WHERE o.id = a.id`);
  await db.query(`VACUUM (ANALYZE) orders`);
}

/** A payment's state for the status of what it pays for. */
const PAYMENT_STATUS = (status: string) =>
  `CASE WHEN ${status} IN ('pending_payment', 'requested', 'awaiting_payment') THEN 'created' WHEN ${status} = 'cancelled' THEN 'voided' ELSE 'captured' END`;

/**
 * Grows the seeded database (rows made through the service's doors: one integrator's orders, bookings, payments,
 * quotes, files, attachments and audit trail) to `shape`, in bulk SQL: every new row is a copy of a seeded one of
 * the same kind, with its own ids, number, account, times and status, so the rows look like the service's own.
 * Columns are read from the catalog, so a column added by a later migration is copied as the service wrote it.
 * Files are shared by the copies (each copy attaches its template's files): reads only join them by id.
 */
export async function multiply(
  db: Client,
  shape: Shape,
  integratorId: string,
  log: (step: string) => void,
): Promise<void> {
  const run = async (step: string, sql: string) => {
    const started = Date.now();
    const result = await db.query(sql);
    log(`${step}: ${result.rowCount ?? 0} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  const clone = async (table: string, source: string, overrides: Record<string, string>, conflict = '') => {
    const { rows } = await db.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
      [table],
    );
    const columns = rows.map((row) => row.name);
    const unknown = Object.keys(overrides).filter((column) => !columns.includes(column));
    if (unknown.length) throw new Error(`${table} has no column ${unknown.join(', ')}`);
    const values = columns.map((column) => overrides[column] ?? `t."${column}"`);
    await run(
      table,
      `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) SELECT ${values.join(', ')} ${source} ${conflict}`,
    );
  };
  const [{ orders: seededOrders, bookings: seededBookings }] = (
    await db.query<{ orders: number; bookings: number }>(
      `SELECT (SELECT count(*)::int FROM orders) AS orders, (SELECT count(*)::int FROM interpretation_bookings) AS bookings`,
    )
  ).rows;
  const newAccounts = shape.accounts - 1;
  const integrator = `'${integratorId}'::uuid`;

  await db.query(`SET synchronous_commit = off; SET maintenance_work_mem = '256MB'`);
  // Like a restore: rows first, then the indexes that are not constraints, built once each instead of row by row.
  const { rows: indexes } = await db.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition FROM pg_index i
      WHERE i.indrelid = ANY ($1::regclass[]) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [GROWN],
  );
  for (const { name } of indexes) await db.query(`DROP INDEX ${name}`);
  await run(
    'accounts map',
    `CREATE UNLOGGED TABLE bench_accounts AS
    SELECT n, gen_random_uuid() AS id, now() - random() * interval '4 years' AS created_at FROM generate_series(0, ${newAccounts - 1}) n`,
  );
  const surnames = `(ARRAY[${SURNAMES.map((name) => `'${name}'`).join(', ')}])`;
  await clone('accounts', `FROM bench_accounts m CROSS JOIN accounts t WHERE t.id = ${integrator}`, {
    id: 'm.id',
    name: `${surnames}[1 + m.n % ${SURNAMES.length}] || ' ' || ${surnames}[1 + (m.n / ${SURNAMES.length}) % ${SURNAMES.length}] || ' ' || (ARRAY['LLP', 'LLC', 'Partners', 'Law Group'])[1 + m.n % 4] || ' ' || lpad(m.n::text, 5, '0')`,
    email: `'firm-' || m.n || '@example.test'`,
    api_key_hash: `encode(sha256(('scale-' || m.n)::bytea), 'hex')`,
    api_key_issued_at: 'm.created_at',
    approved_at: 'm.created_at',
    created_at: 'm.created_at',
    updated_at: 'm.created_at',
  });

  await run(
    'orders map',
    `CREATE UNLOGGED TABLE bench_orders AS
    WITH templates AS (SELECT id, payment_id, quote_id, (row_number() OVER (ORDER BY created_at, id) - 1)::int AS k FROM orders),
    picked AS (
      SELECT g, g <= ${shape.integratorOrders - seededOrders} AS integrator, random() AS r,
             now() - CASE WHEN g <= ${shape.integratorOrders - seededOrders} THEN random() * interval '1 year' ELSE random() * interval '3 years' END AS created_at
        FROM generate_series(1, ${shape.orders - seededOrders}) g)
    SELECT p.g AS n, t.id AS template_id, t.payment_id AS template_payment_id, t.quote_id AS template_quote_id,
           gen_random_uuid() AS id, gen_random_uuid() AS payment_id, gen_random_uuid() AS quote_id,
           coalesce(a.id, ${integrator}) AS account_id, p.created_at, ${ORDER_STATUS} AS status
      FROM picked p JOIN templates t ON t.k = p.g % ${seededOrders}
      LEFT JOIN bench_accounts a ON NOT p.integrator AND a.n = p.g % ${newAccounts}`,
  );
  // A payment and what it pays for name each other: the copies of both are written in one transaction, the payments'
  // keys to their owners checked at its commit, once the payments of copies the owners' clone skipped are dropped.
  await db.query('BEGIN');
  await clonePayments('bench_orders', 'order');
  await clone('quotes', `FROM bench_orders m JOIN quotes t ON t.id = m.template_quote_id`, {
    id: 'm.quote_id',
    account_id: 'm.account_id',
    stored_status: `'converted'`,
    reference: `'Matter ' || m.n`,
    expires_at: `m.created_at + interval '30 days'`,
    created_at: `m.created_at - interval '1 hour'`,
    updated_at: 'm.created_at',
  });
  await clone(
    'orders',
    `FROM bench_orders m JOIN orders t ON t.id = m.template_id`,
    {
      id: 'm.id',
      number: numberOf('t.number', 'm.n', 'm.created_at'),
      account_id: 'm.account_id',
      quote_id: 'm.quote_id',
      payment_id: 'm.payment_id',
      reference: `'Matter ' || m.n`,
      ...orderState('m'),
    },
    'ON CONFLICT DO NOTHING',
  );
  await dropUnowned('bench_orders', 'orders');
  await db.query('COMMIT');
  // About 2.5 attachments an order: the first two or three of its template's.
  await clone(
    'file_attachments',
    `FROM bench_orders m JOIN (SELECT a.*, row_number() OVER (PARTITION BY a.order_id ORDER BY a.created_at, a.id) AS rank
       FROM file_attachments a WHERE a.order_id IS NOT NULL) t ON t.order_id = m.template_id WHERE t.rank <= 2 + m.n % 2`,
    { id: 'gen_random_uuid()', order_id: 'm.id', created_at: `m.created_at + t.rank * interval '1 minute'` },
  );

  await run(
    'bookings map',
    `CREATE UNLOGGED TABLE bench_bookings AS
    WITH templates AS (SELECT id, payment_id, (row_number() OVER (ORDER BY created_at, id) - 1)::int AS k FROM interpretation_bookings),
    picked AS (
      SELECT g, random() AS r, now() - random() * interval '3 years' AS created_at, now() + (random() * 3.1 - 3) * interval '1 year' AS scheduled_at
        FROM generate_series(1, ${shape.bookings - seededBookings}) g)
    SELECT p.g AS n, t.id AS template_id, t.payment_id AS template_payment_id, gen_random_uuid() AS id,
           CASE WHEN t.payment_id IS NOT NULL THEN gen_random_uuid() END AS payment_id,
           CASE WHEN p.g % 50 = 0 THEN ${integrator} ELSE a.id END AS account_id,
           least(p.created_at, p.scheduled_at - interval '1 day') AS created_at, p.scheduled_at, ${BOOKING_STATUS} AS status
      FROM picked p JOIN templates t ON t.k = p.g % ${seededBookings}
      JOIN bench_accounts a ON a.n = p.g % ${newAccounts}`,
  );
  await db.query('BEGIN');
  await clonePayments('bench_bookings', 'booking');
  await clone(
    'interpretation_bookings',
    `FROM bench_bookings m JOIN interpretation_bookings t ON t.id = m.template_id`,
    {
      id: 'm.id',
      number: `split_part(t.number, '-', 1) || '-INT-' || to_char(m.created_at, 'YYMM') || '-' || ${codeOf('m.n')}`,
      account_id: 'm.account_id',
      payment_id: 'm.payment_id',
      status: 'm.status',
      held_from: `CASE WHEN m.status = 'on_hold' THEN 'confirmed' END`,
      hold_reason: `CASE WHEN m.status = 'on_hold' THEN 'The interpreter is ill; finding another.' END`,
      interpreter_name: `CASE WHEN m.status IN ('confirmed', 'completed', 'on_hold') THEN 'Ana Ruiz' END`,
      scheduled_at: 'm.scheduled_at',
      completed_at: finished('m', 'completed', `m.scheduled_at + interval '3 hours'`),
      cancelled_at: finished('m', 'cancelled', `m.created_at + interval '1 day'`),
      created_at: 'm.created_at',
      updated_at: `m.created_at + interval '1 hour'`,
    },
    'ON CONFLICT DO NOTHING',
  );
  await dropUnowned('bench_bookings', 'interpretation_bookings');
  await db.query('COMMIT');

  // The audit trail, about 2.7 entries a piece of work: each copy gets its template's entries, and its payment the
  // last of its template payment's.
  const trails = [
    { map: 'bench_orders', template: 'm.template_id', copy: 'm.id', last: false },
    { map: 'bench_orders', template: 'm.template_payment_id', copy: 'm.payment_id', last: true },
    { map: 'bench_bookings', template: 'm.template_id', copy: 'm.id', last: false },
  ];
  for (const { map, template, copy, last } of trails) {
    await clone(
      'audit_entries',
      `FROM ${map} m JOIN (SELECT a.*, a.created_at - min(a.created_at) OVER (PARTITION BY a.resource_id) AS later,
         row_number() OVER (PARTITION BY a.resource_id ORDER BY a.created_at DESC, a.id DESC) AS from_last FROM audit_entries a) t
         ON t.resource_id = ${template}::text${last ? ' AND t.from_last = 1' : ''}`,
      { id: 'gen_random_uuid()', resource_id: `${copy}::text`, created_at: 'm.created_at + t.later' },
    );
  }

  await run('drop maps', `DROP TABLE bench_accounts, bench_orders, bench_bookings`);
  for (const { name, definition } of indexes) await run(`index ${name}`, definition);
  // What the workers' fold does each minute: the counts the copies' inserts recorded, added up.
  await run('fold order counts', ORDER_COUNT_FOLD);
  // What autovacuum would have done over the years: statistics, and the visibility map index-only scans need.
  for (const table of GROWN) {
    await run(`vacuum ${table}`, `VACUUM (ANALYZE) "${table}"`);
  }

  async function clonePayments(map: string, owner: 'order' | 'booking'): Promise<void> {
    const captured = `${PAYMENT_STATUS('m.status')} = 'captured'`;
    await clone('payments', `FROM ${map} m JOIN payments t ON t.id = m.template_payment_id`, {
      id: 'm.payment_id',
      order_id: owner === 'order' ? 'm.id' : 'NULL',
      booking_id: owner === 'booking' ? 'm.id' : 'NULL',
      provider_order_id: `CASE WHEN t.provider_order_id IS NOT NULL THEN 'SCALE-${map}-' || m.n END`,
      status: PAYMENT_STATUS('m.status'),
      capture_id: `CASE WHEN ${captured} THEN 'SCALE-CAPTURE-' || m.n END`,
      captured_cents: `CASE WHEN ${captured} THEN t.amount_cents ELSE 0 END`,
      refunded_cents: '0',
      paid_at: `CASE WHEN ${captured} THEN m.created_at + interval '10 minutes' END`,
      refunded_at: 'NULL',
      in_flight_since: 'NULL',
      refund_refusal: 'NULL',
      refund_pending_cents: '0',
      created_at: 'm.created_at',
      updated_at: 'm.created_at',
    });
  }

  /** The payments of copies their owners' clone skipped (a number taken already). */
  async function dropUnowned(map: string, owners: string): Promise<void> {
    await run(
      `payments of ${owners} not copied`,
      `DELETE FROM payments p USING ${map} m WHERE p.id = m.payment_id AND NOT EXISTS (SELECT 1 FROM "${owners}" o WHERE o.id = m.id)`,
    );
  }
}
