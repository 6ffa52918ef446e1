/**
 * Polling benchmark (a script that measures and prints; not a test).
 *
 *   npm run bench:polling            # embedded PostgreSQL under a temporary DATA_DIR, or DATABASE_URL if set
 *
 * Integrators poll GET /orders/{id} and GET /interpretation-bookings/{id} all day. This boots the real service
 * (HTTP, services, PostgreSQL), makes a completed order with four documents and a booking, then polls each path
 * from CONCURRENCY keep-alive clients for SECONDS and prints throughput and latency percentiles and the SQL
 * statements one request runs.
 */
import 'reflect-metadata';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createLogger } from '../src/api/http/logger';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/load-config';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrations';
import { SentEmail } from '../src/domain/mail/sent-email.entity';
import { StaffRole } from '../src/domain/staff/staff-user.entity';
import { JobQueue } from '../src/jobs/job-queue';
import { startWorkers } from '../src/jobs/workers';
import { createServices, type Services } from '../src/services';

const CONCURRENCY = 8;
const SECONDS = 8;

async function main(): Promise<void> {
  const env = { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-bench-')), LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000' };
  const config = loadConfig(env);
  const logger = createLogger('silent');
  const db = await openDatabase(config, logger);
  const url = db.orm.config.get('clientUrl')!;
  await migrate(db.orm);
  const queue = await JobQueue.start(url, logger, 0.5);
  const services = createServices(config, { queue, logger });
  await startWorkers(queue, db.orm, services);
  const app = await createApp({ orm: db.orm, services, logger });
  const server: Server = app.express.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const key = await apiKey(db.orm.em.fork(), services);
    const call: Call = async (method, path, body) => {
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      if (typeof body === 'string') headers['content-type'] = 'application/json';
      const res = await fetch(`${base}${path}`, { method, body, headers });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Awaited<ReturnType<Call>>;
    };
    const orderId = await paidOrder(call, base);
    // Poll a settled order: the translation job in this process would otherwise share the CPU with the clients.
    while ((await call('GET', `/api/v1/orders/${orderId}`)).data.status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 200));
    const bookingId = (await call('POST', '/api/v1/interpretation-bookings', JSON.stringify({ source_language: 'es', target_language: 'en', mode: 'video_remote', scheduled_at: '2030-12-01T09:30:00Z', duration_hours: 2 }))).data.id;

    console.log(`polling benchmark: ${CONCURRENCY} keep-alive clients, ${SECONDS} s per path, database ${db.embedded ? 'embedded' : 'DATABASE_URL'}`);
    for (const path of [`/api/v1/orders/${orderId}`, `/api/v1/interpretation-bookings/${bookingId}`]) {
      const statements = await sqlPerRequest(db.orm, () => call('GET', path));
      const { requests, latencies } = await poll(`${base}${path}`, key);
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2);
      console.log(`GET ${path.replace(/[0-9a-f-]{36}/, '{id}')}: ${(requests / SECONDS).toFixed(0)} req/s, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, ${statements} SQL statements a request`);
    }
  } finally {
    server.close();
    await app.close();
    await queue.stop();
    await db.close();
  }
}

/** A staff user approves an account; the key is read from the sandbox outbox, as a person would. */
async function apiKey(em: EntityManager, services: Services): Promise<string> {
  const ctx = { em, requestId: 'bench', actor: null };
  const { staffUser } = await services.staff.create(ctx, { email: 'bench-staff@example.test', name: 'Bench', role: StaffRole.ADMIN });
  const staffCtx = { ...ctx, actor: { kind: 'staff' as const, staff: staffUser } };
  const account = await services.accounts.create(staffCtx, { name: 'Bench LLP', email: 'bench@example.test' });
  await services.accounts.approve(staffCtx, account.id);
  const mail = await em.findOneOrFail(SentEmail, { to: 'bench@example.test' }, { orderBy: { createdAt: 'desc' } });
  return /ltk_test_[A-Za-z0-9]{40}/.exec(mail.text)![0];
}

type Call = (method: string, path: string, body?: string | FormData) => Promise<{ data: { id: string; status?: string } } & Record<string, unknown>>;

/** Four one-page PDFs, a standard quote, converted and paid at the sandbox checkout. */
async function paidOrder(call: Call, base: string): Promise<string> {
  const fileIds: string[] = [];
  for (let i = 0; i < 4; i++) {
    const form = new FormData();
    form.append('file', new Blob([await onePagePdf(`Document ${i}: the parties agree as follows.`)], { type: 'application/pdf' }), `doc-${i}.pdf`);
    fileIds.push((await call('POST', '/api/v1/files', form)).data.id);
  }
  const quote = await call('POST', '/api/v1/quotes', JSON.stringify({ source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: fileIds }));
  const converted = await call('POST', `/api/v1/quotes/${quote.data.id}/convert`);
  const checkout = new URL(String(converted.provider_approval_url));
  const paid = await fetch(`${base}${checkout.pathname}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  if (paid.status !== 200) throw new Error(`sandbox checkout: ${paid.status}`);
  return converted.data.id;
}

async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]).drawText(text, { x: 40, y: 740, size: 11, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

/** The SQL statements one request runs, read from the query builder's own events. */
async function sqlPerRequest(orm: MikroORM, request: () => Promise<unknown>): Promise<number> {
  const knex = (orm.em.getConnection() as unknown as { getKnex(): { on(e: string, f: () => void): void; off(e: string, f: () => void): void } }).getKnex();
  let count = 0;
  const counter = () => void count++;
  knex.on('query', counter);
  try {
    await request();
  } finally {
    knex.off('query', counter);
  }
  return count;
}

/** CONCURRENCY clients, each sending its next request when the last is answered, for SECONDS. */
async function poll(url: string, key: string): Promise<{ requests: number; latencies: number[] }> {
  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return { requests: latencies.length, latencies: latencies.sort((a, b) => a - b) };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
