/**
 * Polling benchmark (a script that measures and prints; not a test).
 *
 *   npm run bench:polling            # embedded PostgreSQL under a temporary DATA_DIR, or DATABASE_URL if set
 *   BENCH_SECONDS=5 BENCH_PROFILE_DIR=prof npm run bench:polling   # shorter, with a CPU profile of the service
 *   BENCH_COMPARE=../other-checkout npm run bench:polling   # also another build of the service, in the same turns
 *
 * Integrators poll GET /orders/{id} and GET /interpretation-bookings/{id} all day (D23). This seeds one
 * account with ORDERS orders and as many bookings, then, one after the other and in the same run, loads with
 * CONNECTIONS keep-alive clients cycling over them: a raw node `http` + `pg` server (bench/raw-baseline.ts), the
 * service's REST door, its GraphQL door asking for the same fields, and REST with `If-None-Match` (304, D23).
 * The service and the baseline run as separate processes (`npm run serve` as deployed, logging at `info`); the
 * load comes from this one. Ratios are taken within the run, so a machine shared with other work still compares
 * like with like; the other load found before the run is printed with the figures. A change worth a few percent is
 * below the noise between two runs on a shared machine: BENCH_COMPARE names another checkout, built (`node build.js`
 * there), whose service is started beside this one on the same database and measured in the same rotation, REST,
 * GraphQL and 304, so the two builds are compared within one run.
 */
import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../src/shared/logger';
import { loadConfig } from '../src/config/load-config';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrations';
import { load, summarize, type LoadRequest, type LoadResult, type LoadRun } from './load';
import { cpuSeconds, postgresCpu } from './process-cpu';
import { startInProcessApp } from './in-process-app';
import { seed } from './seed';
import { freePort, machineBusy, ready, SERVE_FLAGS, start, stopAll } from './service-process';

const CONNECTIONS = 50;
const ORDERS = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = 3;
const ROUNDS = 5;

const ORDER_QUERY = `query Order($id: ID!) { order(id: $id) { id number status serviceType sourceLanguage targetLanguage unitType unitCount
  subtotalCents addons { code quantity unitPriceCents totalCents } addonsTotalCents totalCents currency reference quoteId
  files { id type name downloadUrl } payment { provider providerOrderId approvalUrl paidAt refundedAt } holdReason dueAt
  completedAt cancelledAt createdAt updatedAt } }`;
const BOOKING_QUERY = `query Booking($id: ID!) { interpretationBooking(id: $id) { id number status mode setting sourceLanguage
  targetLanguage scheduledAt durationHours billableHours unitPriceCents totalCents currency
  payment { provider providerOrderId approvalUrl paidAt refundedAt } location videoPlatformNotes reference interpreterName
  holdReason completedAt cancelledAt createdAt updatedAt } }`;

async function main(): Promise<void> {
  const othersBusy = await machineBusy();
  const [servicePort, rawPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'ltk-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    APP_KEY: randomBytes(32).toString('hex'),
    APP_URL: `http://127.0.0.1:${servicePort}`,
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'silent',
  };
  const config = loadConfig(env);
  const logger = createLogger('silent');
  const db = await openDatabase(config, logger);
  const children: ChildProcess[] = [];
  try {
    const url = db.orm.config.get('clientUrl')!;
    await migrate(db.orm);
    const { seeded, statements } = await seedThroughAnApp(config, url);
    const childEnv = { ...env, DATABASE_URL: url, LOG_LEVEL: 'info' };
    // BENCH_PROFILE_DIR=dir writes a CPU profile of the service (open it in Chrome's DevTools) when the run ends.
    const profile = process.env.BENCH_PROFILE_DIR
      ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE_DIR]
      : [];
    const service = start([...profile, ...SERVE_FLAGS, 'dist/src/main.js', '--role', 'serve'], {
      ...childEnv,
      PORT: String(servicePort),
    });
    const raw = start(['dist/bench/raw-baseline.js'], { ...childEnv, PORT: String(rawPort) });
    children.push(service, raw);
    const other = process.env.BENCH_COMPARE ? { port: await freePort(), root: process.env.BENCH_COMPARE } : undefined;
    const otherService =
      other &&
      start([...SERVE_FLAGS, join(other.root, 'dist/src/main.js'), '--role', 'serve'], {
        ...childEnv,
        PORT: String(other.port),
      });
    if (otherService) children.push(otherService);
    const auth = { authorization: `Bearer ${seeded.key}` };
    await Promise.all([ready(servicePort, auth), ready(rawPort, auth), ...(other ? [ready(other.port, auth)] : [])]);
    await sameAnswers(servicePort, rawPort, auth, seeded.orderIds, seeded.bookingIds);

    console.log(
      `polling benchmark: ${CONNECTIONS} connections, one key, ${ORDERS} orders and ${ORDERS} bookings, ${SECONDS} s a target in ${ROUNDS} interleaved turns after ${WARM_UP_SECONDS} s of warm-up, database ${db.embedded ? 'embedded' : 'DATABASE_URL'}`,
    );
    console.log(
      `machine: ${cpus().length} x ${cpus()[0]?.model.trim()}, node ${process.version}; busy with other work before the run: ${(othersBusy * 100).toFixed(0)}% of all cores`,
    );
    console.log(
      `SQL statements a request (counted in process): GET /orders/{id} ${statements.order}, its 304 ${statements.order304}; GET /interpretation-bookings/{id} ${statements.booking}, its 304 ${statements.booking304}\n`,
    );
    for (const [name, path, ids, query] of [
      ['orders', '/api/v1/orders/', seeded.orderIds, ORDER_QUERY],
      ['interpretation-bookings', '/api/v1/interpretation-bookings/', seeded.bookingIds, BOOKING_QUERY],
    ] as const) {
      const get = (id: string, headers = {}): LoadRequest => ({
        method: 'GET',
        path: path + id,
        headers: { ...auth, ...headers },
        status: 200,
      });
      const etags = await Promise.all(
        ids.map(async (id) =>
          (await fetch(`http://127.0.0.1:${servicePort}${path}${id}`, { headers: auth })).headers.get('etag')!,
        ),
      );
      const restOf = (port: number, pid: number): Target => ({ port, pid, next: (i) => get(ids[i % ids.length]) });
      const graphqlOf = (port: number, pid: number): Target => ({
        port,
        pid,
        next: (i) => ({
          method: 'POST',
          path: '/graphql',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables: { id: ids[i % ids.length] } }),
          status: 200,
        }),
      });
      const notModifiedOf = (port: number, pid: number): Target => ({
        port,
        pid,
        next: (i) => ({ ...get(ids[i % ids.length], { 'if-none-match': etags[i % ids.length] }), status: 304 }),
      });
      const [baseline, rest, graphql, notModified, otherRest, otherGraphql, otherNotModified] = await interleaved([
        restOf(rawPort, raw.pid!),
        restOf(servicePort, service.pid!),
        graphqlOf(servicePort, service.pid!),
        notModifiedOf(servicePort, service.pid!),
        ...(other
          ? [
              restOf(other.port, otherService!.pid!),
              graphqlOf(other.port, otherService!.pid!),
              notModifiedOf(other.port, otherService!.pid!),
            ]
          : []),
      ]);
      console.log(`GET ${path}{id}`);
      row('raw node + pg', baseline, '');
      row(
        'service, REST',
        rest,
        `${ratio(rest, baseline)} of raw (target >= 0.70: ${met(rest.perSecond >= 0.7 * baseline.perSecond)}); p99 ${(rest.p99 / baseline.p99).toFixed(2)} of raw's (target <= 60 ms: ${met(rest.p99 <= 60)})`,
      );
      row(
        'service, GraphQL',
        graphql,
        `${ratio(graphql, rest)} of REST (target >= 0.70: ${met(graphql.perSecond >= 0.7 * rest.perSecond)})`,
      );
      row(
        'service, REST 304',
        notModified,
        `${ratio(notModified, baseline)} of raw (target >= 1.30: ${met(notModified.perSecond >= 1.3 * baseline.perSecond)})`,
      );
      if (otherRest && otherGraphql && otherNotModified) {
        row('other build, REST', otherRest, `${ratio(otherRest, rest)} of this build's`);
        row(
          'other build, GraphQL',
          otherGraphql,
          `${ratio(otherGraphql, graphql)} of this build's; ${ratio(otherGraphql, otherRest)} of its REST`,
        );
        row('other build, 304', otherNotModified, `${ratio(otherNotModified, notModified)} of this build's`);
      }
      console.log(`  (${name}: load average after this path ${loadavg()[0].toFixed(2)})\n`);
    }
  } finally {
    await stopAll(children);
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Seeds through an in-process app with its workers (translations finish), and counts a request's SQL statements there. */
async function seedThroughAnApp(config: ReturnType<typeof loadConfig>, url: string) {
  // Every statement the ORM runs is logged through it, prepared ones included: the count is taken there.
  let statementsRun = 0;
  const app = await startInProcessApp(
    config,
    url,
    (line) => void (/select|insert|update|delete/i.test(line) && statementsRun++),
  );
  const { base } = app;
  try {
    const seeded = await seed(app.orm.em.fork(), app.services, app.call, base, ORDERS).finally(() => app.stopWorkers());
    const count = (path: string, ifNoneMatch = false) =>
      statementsOf(async () => {
        const headers: Record<string, string> = { authorization: `Bearer ${seeded.key}` };
        if (ifNoneMatch)
          headers['if-none-match'] = (await fetch(`${base}${path}`, { headers })).headers.get('etag') ?? '';
        return () => fetch(`${base}${path}`, { headers });
      });
    const statements = {
      order: await count(`/api/v1/orders/${seeded.orderIds[2]}`),
      order304: await count(`/api/v1/orders/${seeded.orderIds[2]}`, true),
      booking: await count(`/api/v1/interpretation-bookings/${seeded.bookingIds[0]}`),
      booking304: await count(`/api/v1/interpretation-bookings/${seeded.bookingIds[0]}`, true),
    };
    return { seeded, statements };
  } finally {
    await app.close();
  }

  /** The SQL statements one request runs. */
  async function statementsOf(prepare: () => Promise<() => Promise<unknown>>): Promise<number> {
    const request = await prepare();
    const before = statementsRun;
    await request();
    return statementsRun - before;
  }
}

/** The service and the baseline must answer the same JSON (links compared without their expiry and signature). */
async function sameAnswers(
  servicePort: number,
  rawPort: number,
  headers: Record<string, string>,
  orderIds: string[],
  bookingIds: string[],
): Promise<void> {
  const body = async (port: number, path: string) =>
    (await (await fetch(`http://127.0.0.1:${port}${path}`, { headers })).text()).replace(
      /\?expires=\d+&signature=[0-9a-f]+/g,
      '',
    );
  for (const path of [
    ...orderIds.slice(0, 3).map((id) => `/api/v1/orders/${id}`),
    `/api/v1/interpretation-bookings/${bookingIds[0]}`,
  ]) {
    const [service, raw] = [await body(servicePort, path), await body(rawPort, path)];
    if (service !== raw) throw new Error(`the baseline answers ${path} differently:\n${service}\n${raw}`);
  }
}

/**
 * Each target warmed up, then measured in ROUNDS turns taken in rotation, so that work others start or stop on a
 * shared machine weighs on every target alike.
 */
async function interleaved(targets: Target[]): Promise<Measured[]> {
  for (const { port, next } of targets) await load(port, CONNECTIONS, WARM_UP_SECONDS, next);
  const runs: LoadRun[][] = targets.map(() => []);
  const cpu = targets.map(() => ({ server: 0, database: 0, load: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, { port, pid, next }] of targets.entries()) {
      const before = { server: cpuSeconds([pid]), database: postgresCpu(), load: process.cpuUsage() };
      runs[i].push(await load(port, CONNECTIONS, SECONDS / ROUNDS, next));
      const loadUsage = process.cpuUsage(before.load);
      cpu[i].server += cpuSeconds([pid]) - before.server;
      cpu[i].database += postgresCpu().since(before.database);
      cpu[i].load += (loadUsage.user + loadUsage.system) / 1e6;
    }
  }
  return runs.map((run, i) => {
    const result = summarize(run);
    const perRequest = (seconds: number) => (seconds * 1000) / result.requests;
    return {
      ...result,
      cpu: { server: perRequest(cpu[i].server), database: perRequest(cpu[i].database), load: perRequest(cpu[i].load) },
    };
  });
}

interface Target {
  port: number;
  /** The server's process, whose CPU time is counted. */
  pid: number;
  next: (i: number) => LoadRequest;
}

/** A target's load figures and the CPU milliseconds one request cost each process. */
interface Measured extends LoadResult {
  cpu: { server: number; database: number; load: number };
}

const ratio = (a: Measured, b: Measured) => (a.perSecond / b.perSecond).toFixed(2);
const met = (target: boolean) => (target ? 'met' : 'MISSED');

function row(name: string, r: Measured, note: string): void {
  const cpu = `cpu/req ${r.cpu.server.toFixed(2)} + pg ${r.cpu.database.toFixed(2)} + load ${r.cpu.load.toFixed(2)} ms`;
  console.log(
    `  ${name.padEnd(20)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(5)} ms  p99 ${r.p99.toFixed(1).padStart(5)} ms (turns ${r.p99Range
      .map((ms) => ms.toFixed(0))
      .join('-')
      .padStart(7)})  ${cpu}  ${note}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
