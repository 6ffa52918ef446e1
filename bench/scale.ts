/**
 * Scale benchmark (a script that measures and prints; not a test): issue 25's table of requests, with the booking
 * desk's queue and search and a partner's bookings beside it, against a database of 200 orders and against one of a
 * few years (10,000 accounts, 1,020,000 orders of which one integrator holds 20,000, 102,000 bookings, about 2.5M
 * attachments and 2.7M audit rows), in one run.
 *
 *   npm run bench:scale                                  # embedded PostgreSQL under a temporary directory
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:scale   # that server (databases ltk_scale_*)
 *   BENCH_SCALE=0.1 npm run bench:scale                  # a tenth of the rows, to try it quickly
 *   BENCH_REUSE=1 DATABASE_URL=... npm run bench:scale   # keep the databases of an earlier run (migrated again)
 *
 * The small database is seeded through the service's own doors (bench/seed.ts); the large one is a copy of it grown
 * in bulk SQL from those rows (bench/scale-data.ts). Each database gets its own service process (`npm run serve`
 * as deployed); CONNECTIONS keep-alive clients load every request of both, in turns taken in rotation, so work
 * others run on a shared machine weighs on every figure alike. Then the same requests go one at a time through an
 * in-process app whose ORM logs every statement with its time: the statements a request runs on each database and
 * the slowest statements of the large one (PostgreSQL's pg_stat_statements needs a server preloading it; the ORM's
 * log needs nothing). The targets of issue 25 are printed met or MISSED.
 */
import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { loadConfig } from '../src/config/load-config';
import { startInProcessApp } from './in-process-app';
import { load, summarize, type LoadRequest, type LoadResult, type LoadRun } from './load';
import { shapeOf } from './scale-data';
import { databases, scaleServer, SEEDED_ORDERS, type Database } from './scale-databases';
import { freePort, machineBusy, ready, SERVE_FLAGS, start, stopAll } from './service-process';

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const CONNECTIONS = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARM_UP_SECONDS = 2;
const ROUNDS = 3;
/** Each request is run this many times, one at a time, to time its statements. */
const TIMED_RUNS = 10;

/** Issue 25's targets; a request's statements include its credential's look-up. */
const STAFF_P99_MS = 100;
const PARTNER_RATIO = 0.7;
const MOST_STATEMENTS = 4;

const STAFF_ORDERS = `query Desk($status: OrderStatus, $overdue: Boolean, $search: String) {
  staffOrders(status: $status, overdue: $overdue, search: $search) {
    items { id number status reference dueAt createdAt account { id name } assignee { id name } }
    pageInfo { page perPage total lastPage } } }`;
const STAFF_BOOKINGS = `query BookingDesk($status: InterpretationBookingStatus, $search: String) {
  staffInterpretationBookings(status: $status, search: $search) {
    items { id number status reference scheduledAt account { id name } }
    pageInfo { page perPage total lastPage } } }`;
const PARTNER_ORDERS = `query { orders { items { id number status serviceType totalCents currency reference dueAt completedAt createdAt
  files { id type name downloadUrl } payment { provider paidAt } } pageInfo { page perPage total lastPage } } }`;

interface Kind {
  name: string;
  staff: boolean;
  next: (db: Database, i: number) => LoadRequest;
}

const KINDS: Kind[] = [
  { name: 'staffOrders(overdue: true)', staff: true, next: (db) => desk(db, { overdue: true }) },
  { name: 'staffOrders(status: IN_REVIEW)', staff: true, next: (db) => desk(db, { status: 'IN_REVIEW' }) },
  {
    name: 'staffOrders(search:)',
    staff: true,
    next: (db, i) => desk(db, { search: db.searches[i % db.searches.length] }),
  },
  { name: 'GET /orders?status=completed', staff: false, next: (db) => get(db, '/api/v1/orders?status=completed') },
  {
    name: "last page of a partner's orders",
    staff: false,
    next: (db) => get(db, `/api/v1/orders?page=${db.lastPage}`),
  },
  { name: 'GraphQL orders', staff: false, next: (db) => graphql(db.key, PARTNER_ORDERS, {}) },
  {
    name: 'staffInterpretationBookings(status: REQUESTED)',
    staff: true,
    next: (db) => graphql(db.staffToken, STAFF_BOOKINGS, { status: 'REQUESTED' }),
  },
  {
    name: 'staffInterpretationBookings(search:)',
    staff: true,
    next: (db, i) =>
      graphql(db.staffToken, STAFF_BOOKINGS, { search: db.bookingSearches[i % db.bookingSearches.length] }),
  },
  { name: 'GET /interpretation-bookings', staff: false, next: (db) => get(db, '/api/v1/interpretation-bookings') },
];

/** The request column of the printed table. */
const NAME_WIDTH = Math.max(...KINDS.map((kind) => kind.name.length)) + 1;

async function main(): Promise<void> {
  const othersBusy = await machineBusy();
  const started = Date.now();
  const server = await scaleServer('ltk-scale-');
  const { env } = server;
  const children: ChildProcess[] = [];
  try {
    const [small, large] = await databases(server.url, env, SCALE);
    const built = (Date.now() - started) / 1000;
    const ports = [await freePort(), await freePort()];
    for (const [i, db] of [small, large].entries()) {
      children.push(
        start([...SERVE_FLAGS, 'dist/src/main.js', '--role', 'serve'], {
          ...env,
          DATABASE_URL: db.url,
          LOG_LEVEL: 'info',
          PORT: String(ports[i]),
          APP_URL: `http://127.0.0.1:${ports[i]}`,
        }),
      );
    }
    await Promise.all(ports.map((port, i) => ready(port, { authorization: `Bearer ${[small, large][i].key}` })));

    const shape = shapeOf(SCALE);
    console.log(
      `scale benchmark: ${CONNECTIONS} connections; small ${SEEDED_ORDERS} orders; large ${shape.orders} orders (${shape.integratorOrders} of one integrator), ${shape.accounts} accounts, ${shape.bookings} bookings (scale ${SCALE}); database ${server.embedded ? 'embedded' : 'DATABASE_URL'}; ready in ${built.toFixed(0)} s`,
    );
    console.log(
      `machine: ${cpus().length} x ${cpus()[0]?.model.trim()}, node ${process.version}; busy with other work before the run: ${(othersBusy * 100).toFixed(0)}% of all cores`,
    );
    console.log(`${SECONDS} s a request and database in ${ROUNDS} turns after ${WARM_UP_SECONDS} s of warm-up\n`);

    const measured = await rotated(
      KINDS.flatMap((kind) =>
        [small, large].map((db, i) => ({ port: ports[i], next: (n: number) => kind.next(db, n) })),
      ),
    );
    const statements = [await statementsOf(small, env), await statementsOf(large, env)];

    console.log(
      `${'request'.padEnd(NAME_WIDTH)} ${'small req/s'.padStart(11)} ${'large req/s'.padStart(11)}  ratio  p50 small/large ms  p99 small/large ms  statements small/large`,
    );
    const verdicts: string[] = [];
    for (const [k, kind] of KINDS.entries()) {
      const [s, l] = [measured[2 * k], measured[2 * k + 1]];
      const ratio = l.perSecond / s.perSecond;
      const counts = [statements[0].counts.get(kind.name)!, statements[1].counts.get(kind.name)!];
      console.log(
        `${kind.name.padEnd(NAME_WIDTH)} ${s.perSecond.toFixed(0).padStart(11)} ${l.perSecond.toFixed(0).padStart(11)}  ${ratio.toFixed(2).padStart(5)}  ${`${s.p50.toFixed(1)} / ${l.p50.toFixed(1)}`.padStart(18)}  ${`${s.p99.toFixed(1)} / ${l.p99.toFixed(1)}`.padStart(18)}  ${`${counts[0]} / ${counts[1]}`.padStart(22)}`,
      );
      verdicts.push(
        kind.staff
          ? `  ${kind.name}: p99 ${l.p99.toFixed(0)} ms on the large database (target <= ${STAFF_P99_MS} ms): ${met(l.p99 <= STAFF_P99_MS)}`
          : `  ${kind.name}: ${ratio.toFixed(2)} of its small-data throughput (target >= ${PARTNER_RATIO}): ${met(ratio >= PARTNER_RATIO)}`,
        `  ${kind.name}: ${counts[1]} statements on the large database, ${counts[0]} on the small (target <= ${MOST_STATEMENTS}, whatever the data): ${met(Math.max(...counts) <= MOST_STATEMENTS)}`,
      );
    }
    console.log(`\ntargets (issue 25):\n${verdicts.join('\n')}`);
    console.log(
      `\nslowest statements on the large database (mean of ${TIMED_RUNS} runs of each request, one at a time):`,
    );
    for (const { sql, mean, runs } of statements[1].slowest.slice(0, 8))
      console.log(`  ${mean.toFixed(1).padStart(7)} ms x${String(runs).padEnd(4)} ${sql}`);
    console.log(`\n(load average at the end ${loadavg()[0].toFixed(2)})`);
  } finally {
    await stopAll(children);
    await server.close();
  }
}

/** Every target warmed up, then measured in ROUNDS turns taken in rotation. */
async function rotated(targets: { port: number; next: (i: number) => LoadRequest }[]): Promise<LoadResult[]> {
  for (const { port, next } of targets) await load(port, CONNECTIONS, WARM_UP_SECONDS, next);
  const runs: LoadRun[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, { port, next }] of targets.entries())
      runs[i].push(await load(port, CONNECTIONS, SECONDS / ROUNDS, next));
  }
  return runs.map(summarize);
}

/**
 * Each request of the table, run TIMED_RUNS times one at a time through an in-process app on `db`: the data
 * statements each ran (the rate budget's sync left out: it is not the request's), and every statement's time.
 */
async function statementsOf(db: Database, env: NodeJS.ProcessEnv) {
  let current: { statements: number } | undefined;
  const times = new Map<string, number[]>();
  const app = await startInProcessApp(
    loadConfig({ ...env, DATABASE_URL: db.url, APP_URL: 'http://127.0.0.1' }),
    db.url,
    (line) => {
      if (!current || !/\b(select|insert|update|delete)\b/i.test(line) || /rate_limit_counts/.test(line)) return;
      current.statements++;
      const took = /\[took (\d+(?:\.\d+)?) ms/.exec(line);
      const sql = shortened(line);
      if (took) times.set(sql, [...(times.get(sql) ?? []), Number(took[1])]);
    },
  );
  await app.stopWorkers();
  const counts = new Map<string, number>();
  try {
    const port = Number(new URL(app.base).port);
    for (const kind of KINDS) {
      for (let i = 0; i < TIMED_RUNS; i++) {
        current = { statements: 0 };
        await send(port, kind.next(db, i));
        counts.set(kind.name, Math.max(counts.get(kind.name) ?? 0, current.statements));
        current = undefined;
      }
    }
  } finally {
    await app.close();
  }
  const slowest = [...times]
    .map(([sql, ms]) => ({ sql, runs: ms.length, mean: ms.reduce((a, b) => a + b, 0) / ms.length }))
    .sort((a, b) => b.mean - a.mean);
  return { counts, slowest };
}

async function send(port: number, { method, path, headers, body, status }: LoadRequest): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body });
  const text = await res.text();
  if (res.status !== status || /"errors"/.test(text))
    throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
}

/** A statement as the ORM logged it, without its time and with its values left out, on one short line. */
const shortened = (line: string) =>
  line
    .replace(/^\[query\]\s*/, '')
    .replace(/\s*\[took .*$/, '')
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\b\d+\b/g, 'N')
    .replace(/\s+/g, ' ')
    .slice(0, 140);

const desk = (db: Database, variables: Record<string, unknown>) => graphql(db.staffToken, STAFF_ORDERS, variables);
const graphql = (token: string, query: string, variables: Record<string, unknown>): LoadRequest => ({
  method: 'POST',
  path: '/graphql',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ query, variables }),
  status: 200,
});
const get = (db: Database, path: string): LoadRequest => ({
  method: 'GET',
  path,
  headers: { authorization: `Bearer ${db.key}` },
  status: 200,
});
const met = (target: boolean) => (target ? 'met' : 'MISSED');

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
