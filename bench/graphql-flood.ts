/**
 * Hostile GraphQL documents benchmark (D36; a script that measures and prints; not a test).
 *
 *   npm run bench:graphql-flood             # 60 s a phase; BENCH_SECONDS=20 for shorter phases
 *   BENCH_ONLY=operations npm run bench:graphql-flood   # only the kinds whose name contains that text
 *
 * A real service process (`npm run serve` as deployed, the default budget of 120 a minute) on an embedded database
 * (or DATABASE_URL). Eight accounts poll their orders (`GET /api/v1/orders/{id}`), together 12 a second, each
 * inside its budget: first on a quiet service, then while one anonymous address sends one kind of the worst GraphQL
 * documents it can, as fast as its budget lets it (on 429 it waits the Retry-After it is told, as a client at its
 * budget does). Each hostile phase follows a quiet one of the same length. Target: the pollers' p99 within 2x of the
 * quiet p99. The p99 of one phase's 700 polls is its 7th slowest poll, and moves with anything else the machine does
 * (quiet phases of one run gave 8.6 to 19.5 ms): each kind is reported against the quiet phase before it and against
 * the quiet polls of the whole run pooled, which the target is read on. Run it on a quiet machine, and read the
 * service's CPU beside it.
 */
import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config/load-config';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrations';
import { createLogger } from '../src/shared/logger';
import { cpuSeconds } from './process-cpu';
import { startInProcessApp } from './in-process-app';
import { seed } from './seed';
import { freePort, machineBusy, ready, SERVE_FLAGS, start, stopAll } from './service-process';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
/** Enough polls for a p99 (90 a minute each, inside the budget of 120), from accounts the sender does not share. */
const POLLERS = 8;
const POLLS_PER_SECOND = 12;
const ATTACKER = '198.51.100.200';

const aliases = (count: number, field: string) =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

/** The documents a hostile sender would pick: each the worst of its kind for the CPU it makes the service spend. */
const HOSTILE: { name: string; query: string }[] = [
  {
    name: '800 KB of aliases (413 before parsing)',
    query: aliases(16_000, 'certificate(code: "LTC-0000-0000") { code }'),
  },
  {
    name: '60 KB of aliases (refused for its fields)',
    query: aliases(1_250, 'certificate(code: "LTC-0000-0000") { code }'),
  },
  {
    name: '600 operations in one document',
    query: Array.from({ length: 600 }, (_, i) => `query q${i} { languages { code } }`).join(' '),
  },
  { name: '499 same-named fields, cost 6', query: `{ languages { ${'code '.repeat(499)}} }` },
  { name: '500 aliases of __typename, cost 5', query: aliases(500, '__typename') },
];

async function main(): Promise<void> {
  const othersBusy = await machineBusy();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'ltk-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    APP_KEY: randomBytes(32).toString('hex'),
    APP_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_PER_MINUTE: '120',
    LOG_LEVEL: 'silent',
  };
  const config = loadConfig(env);
  const db = await openDatabase(config, createLogger('silent'));
  const children: ChildProcess[] = [];
  try {
    const url = db.orm.config.get('clientUrl')!;
    await migrate(db.orm);
    const pollers = await seedPollers(config, url);
    const service = start([...SERVE_FLAGS, 'dist/src/main.js', '--role', 'serve'], {
      ...env,
      DATABASE_URL: url,
      PORT: String(port),
    });
    children.push(service);
    await ready(port, { authorization: `Bearer ${pollers[0].key}` });
    console.log(
      `GraphQL flood benchmark: ${POLLERS} accounts polling ${POLLS_PER_SECOND} a second in all, one anonymous sender at its budget of 120 a minute, ${SECONDS} s a phase`,
    );
    console.log(
      `machine: ${cpus().length} x ${cpus()[0]?.model.trim()}, node ${process.version}; busy with other work before the run: ${(othersBusy * 100).toFixed(0)}% of all cores\n`,
    );
    const only = process.env.BENCH_ONLY;
    const measured: { name: string; hostile: Phase; quiet: Phase }[] = [];
    for (const hostile of HOSTILE.filter(({ name }) => !only || name.includes(only))) {
      // Each kind after a quiet phase, so that other work on the machine weighs on both alike; then a fresh minute
      // for the sender, whose budget starts full in every phase.
      const quiet = await phase(port, pollers, service.pid!);
      await sleep(60_000 - (Date.now() % 60_000) + 100);
      measured.push({ name: hostile.name, hostile: await phase(port, pollers, service.pid!, hostile.query), quiet });
    }
    const pooled = p99(measured.flatMap(({ quiet }) => quiet.latencies));
    console.log(
      `quiet polls of the run pooled: ${measured.reduce((n, { quiet }) => n + quiet.latencies.length, 0)}, p99 ${pooled.toFixed(1)} ms\n`,
    );
    for (const { name, hostile, quiet } of measured) report(name, hostile, quiet, pooled);
    console.log(`\n(load average at the end ${loadavg()[0].toFixed(2)})`);
  } finally {
    await stopAll(children);
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Poller {
  key: string;
  orderId: string;
}

interface Phase {
  latencies: number[];
  failures: number;
  sent: Record<number, number>;
  serviceCpu: number;
}

async function seedPollers(config: ReturnType<typeof loadConfig>, url: string): Promise<Poller[]> {
  const app = await startInProcessApp(config, url, () => undefined);
  try {
    const pollers: Poller[] = [];
    for (let i = 0; i < POLLERS; i++) {
      const seeded = await seed(app.orm.em.fork(), app.services, app.call, app.base, 1, `poller-${i}`);
      pollers.push({ key: seeded.key, orderId: seeded.orderIds[0] });
    }
    return pollers;
  } finally {
    await app.close();
  }
}

/** The pollers at their steady rate for SECONDS, and the sender (when given) as fast as its budget lets it. */
async function phase(port: number, pollers: Poller[], servicePid: number, hostile?: string): Promise<Phase> {
  const result: Phase = { latencies: [], failures: 0, sent: {}, serviceCpu: 0 };
  const cpuBefore = cpuSeconds([servicePid]);
  const ends = performance.now() + SECONDS * 1000;
  const polls: Promise<void>[] = [];
  const sender = hostile ? send(port, hostile, ends, result.sent) : Promise.resolve();
  for (let i = 0; performance.now() < ends; i++) {
    const poller = pollers[i % pollers.length];
    polls.push(
      poll(port, poller).then(
        (ms) => void result.latencies.push(ms),
        () => void result.failures++,
      ),
    );
    await sleep(1000 / POLLS_PER_SECOND);
  }
  await Promise.all([...polls, sender]);
  result.serviceCpu = cpuSeconds([servicePid]) - cpuBefore;
  return result;
}

async function poll(port: number, { key, orderId }: Poller): Promise<number> {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/orders/${orderId}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`poll answered ${res.status}`);
  return performance.now() - started;
}

/** The hostile sender: one document after another, from one address; on 429 it waits what it is told. */
async function send(port: number, query: string, ends: number, sent: Record<number, number>): Promise<void> {
  const body = JSON.stringify({ query });
  while (performance.now() < ends) {
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ATTACKER },
      body,
    });
    await res.arrayBuffer();
    sent[res.status] = (sent[res.status] ?? 0) + 1;
    if (res.status === 429) {
      const wait = Number(res.headers.get('retry-after') ?? 1) * 1000;
      await sleep(Math.min(wait, Math.max(0, ends - performance.now())));
    }
  }
}

const p99 = (latencies: number[]) => [...latencies].sort((a, b) => a - b)[Math.floor(0.99 * latencies.length)] ?? NaN;

function report(name: string, measured: Phase, quiet: Phase, pooled: number): void {
  const sorted = [...measured.latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const ratio = at(0.99) / pooled;
  const sent = Object.entries(measured.sent)
    .map(([status, count]) => `${count} x ${status}`)
    .join(', ');
  console.log(
    `${name.padEnd(44)} polls ${String(sorted.length).padStart(4)} (failed ${measured.failures}), p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms = ${ratio.toFixed(2)}x the pooled quiet p99 (target <= 2x: ${ratio <= 2 ? 'met' : 'NOT met'}), ${(at(0.99) / p99(quiet.latencies)).toFixed(2)}x the ${p99(quiet.latencies).toFixed(1)} ms of the quiet phase before it; service CPU ${measured.serviceCpu.toFixed(1)} s (quiet ${quiet.serviceCpu.toFixed(1)} s)${sent ? `; sender's answers: ${sent}` : ''}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
