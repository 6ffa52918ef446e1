import { randomBytes } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { securityHeaders } from '../../src/api/http/browser-access';
import { createMetrics } from '../../src/api/http/metrics';
import { requestStart } from '../../src/api/http/request-start';
import { pollingLane } from '../../src/api/rest/polling-lane';
import { polledRoutes } from '../../src/api/rest/v1.router';
import { Account } from '../../src/domain/identity/account.entity';
import { createLogger } from '../../src/shared/logger';
import { capturedLogs } from '../helpers/captured-logs';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { signInAs } from '../helpers/members';
import { insertOrder } from '../helpers/rows';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { earlyInWindow } from '../helpers/rate-window';

/**
 * D23: a poll of an order or a booking is answered in front of Express (src/api/rest/polling-lane.ts). Its answer,
 * budget, log line and metric are the routes' own; anything else, and any refusal, reaches Express.
 */
const { logger: capturing, lines: logLines } = capturedLogs();
const statements = new StatementLog();
let t: TestApp;
let staff: string;
let alice: TestAccount;
let bookingPath: string;
let orderPath: string;
beforeAll(async () => {
  t = await startTestApp({
    workers: false,
    logger: capturing,
    onQuery: statements.record,
  });
  staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
  const booking = {
    source_language: 'es',
    target_language: 'en',
    mode: 'asl',
    scheduled_at: '2030-12-01T09:30:00Z',
    duration_hours: 1,
  };
  bookingPath = `/api/v1/interpretation-bookings/${(await t.rest.post('/api/v1/interpretation-bookings', booking, alice.key).expect(201)).body.data.id}`;
  const em = t.orm.em.fork();
  const number = `LT-2030-${randomBytes(3).toString('hex').toUpperCase()}`;
  orderPath = `/api/v1/orders/${(await insertOrder(em, await em.findOneOrFail(Account, { id: alice.id }), { number })).id}`;
});
afterAll(() => t.close());

const etagOf = async (path: string) => (await t.rest.get(path, alice.key).expect(200)).headers.etag;
const remaining = (res: request.Response) => Number(res.headers['x-ratelimit-remaining']);
const poll = (http: ReturnType<typeof request>, path: string, etag: string) =>
  http.get(path).set('Authorization', `Bearer ${alice.key}`).set('If-None-Match', etag);

/** The lane alone in front of a stand-in for Express, which answers 299 and keeps the paths it was given. */
async function laneBefore(): Promise<{ http: ReturnType<typeof request>; handedOver: string[]; server: Server }> {
  const handedOver: string[] = [];
  const express: RequestListener = (req, res) => {
    handedOver.push(`${req.method} ${req.url}`);
    res.writeHead(299).end();
  };
  const metrics = createMetrics(t.orm, t.services.documents, t.queue.metrics);
  const start = requestStart(t.orm, metrics, createLogger('silent')).start;
  const lane = pollingLane(
    { services: t.services, routes: polledRoutes(t.services), start, headers: securityHeaders(t.config) },
    express,
  );
  const server = createServer(lane).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { http: request(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), handedOver, server };
}

/** Express alone, without the lane in front, for what the routes answer. */
async function expressAlone(): Promise<{ http: ReturnType<typeof request>; server: Server }> {
  const server = createServer(t.app.express).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { http: request(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), server };
}

async function closed(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe('the polling lane (D23)', () => {
  it('answers a poll itself, a 304 or the answer, and hands everything else to Express', async () => {
    const { http, handedOver, server } = await laneBefore();
    const routes = await expressAlone();
    try {
      for (const path of [bookingPath, orderPath]) {
        const etag = await etagOf(path);
        const answered = await poll(http, path, etag).expect(304);
        expect(answered.headers).toMatchObject({
          etag,
          'cache-control': 'private, no-cache',
          'x-frame-options': 'DENY',
        });
        await poll(http, path, `"stale", W/${etag}`).expect(304);
        const routesAnswer = await routes.http.get(path).set('Authorization', `Bearer ${alice.key}`).expect(200);
        for (const whole of [http.get(path).set('Authorization', `Bearer ${alice.key}`), poll(http, path, '"stale"')]) {
          const res = await whole.expect(200);
          expect(res.body).toEqual(routesAnswer.body);
          expect(res.headers).toMatchObject({ etag, 'content-type': 'application/json; charset=utf-8' });
        }
        expect(handedOver).toEqual([]);
      }
      const etag = await etagOf(bookingPath);
      const id = bookingPath.split('/')[4];
      const others = [
        poll(http, bookingPath, etag).set('Origin', 'https://portal.example.test'),
        poll(http, bookingPath, etag).set('Content-Length', '0'),
        poll(http, `${bookingPath}?fields=id`, etag),
        poll(http, `${bookingPath}/`, etag),
        poll(http, bookingPath.toUpperCase(), etag),
        poll(http, bookingPath.replace(id, 'not-an-id'), etag),
        poll(http, bookingPath.replace(id, '00000000-0000-4000-8000-000000000000'), etag),
        poll(http, `/api/v1/orders/${id}`, etag),
        http.head(bookingPath).set('Authorization', `Bearer ${alice.key}`).set('If-None-Match', etag),
        http.get(bookingPath).set('If-None-Match', etag),
        http.get(bookingPath).set('Authorization', 'Bearer ltk_test_unknown').set('If-None-Match', etag),
      ];
      for (const other of others) await other.expect(299);
      expect(handedOver).toHaveLength(others.length);
    } finally {
      server.close();
      await closed(routes.server);
    }
  });

  it("answers with the routes' headers, budget, log line and metric, a 304 and a 200 alike", async () => {
    const metric = async (route: string, status: number) =>
      Number(
        new RegExp(
          `http_request_duration_seconds_count\\{method="GET",route="${route}",status="${status}"\\} (\\d+)`,
        ).exec((await t.rest.get('/metrics').expect(200)).text)?.[1] ?? 0,
      );
    const lineOf = (res: request.Response) => {
      const { request_id, duration_ms, time, ...line } = logLines.find(
        (l) => l.request_id === res.headers['x-request-id'],
      )!;
      expect([duration_ms, time]).toEqual([expect.any(Number), expect.any(Number)]);
      return line;
    };
    for (const [path, route] of [
      [bookingPath, '/api/v1/interpretation-bookings/:id'],
      [orderPath, '/api/v1/orders/:id'],
    ]) {
      for (const [condition, status] of [
        [await etagOf(path), 304],
        [undefined, 200],
      ] as const) {
        const before = await metric(route, status);
        const http = request(t.url);
        const get = () => {
          const req = http.get(path).set('Authorization', `Bearer ${alice.key}`);
          return condition ? req.set('If-None-Match', condition) : req;
        };
        await earlyInWindow(); // both answers' budgets in one window (D16)
        const lane = await get().expect(status);
        // A zero-length body is no body to the routes, but the lane leaves any body to Express.
        const routes = await get().set('Content-Length', '0').expect(status);
        expect(lane.text).toBe(routes.text);
        const compared = ({
          date,
          'x-request-id': id,
          'x-ratelimit-remaining': _,
          ...headers
        }: Record<string, string>) => (expect(id).toBeDefined(), headers);
        expect(compared(lane.headers)).toEqual(compared(routes.headers));
        // A 304 is not charged (D23); an answer is, once, by the lane as by the routes.
        expect(remaining(lane) - remaining(routes)).toBe(status === 304 ? 0 : 1);
        expect(lineOf(lane)).toEqual({ ...lineOf(routes), account_id: alice.id, status, path });
        expect(await metric(route, status)).toBe(before + 2);
        expect(statements.of(lane)).toHaveLength(1);
      }
    }
  });

  it('answers a changed resource as one request: one id, one log line, the key looked up once', async () => {
    const res = await poll(request(t.url), bookingPath, '"stale"').set('X-Request-Id', 'lane-changed').expect(200);
    expect(res.headers['x-request-id']).toBe('lane-changed');
    expect(logLines.filter((line) => line.request_id === 'lane-changed')).toHaveLength(1);
    expect(statements.of(res)).toEqual([
      expect.stringMatching(/from "accounts"/),
      expect.stringMatching(/FROM interpretation_bookings/),
    ]);
  });

  it('charges polls answered at once exactly once each, and their 304s not at all (D16, D23)', async () => {
    const http = request(t.url);
    const poll200 = () => http.get(orderPath).set('Authorization', `Bearer ${alice.key}`).expect(200);
    await earlyInWindow(); // every count in one budget window (D16)
    const before = remaining(await poll200());
    const etag = (await poll200()).headers.etag;
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => poll200()),
      ...Array.from({ length: 6 }, () => poll(http, orderPath, etag).expect(304)),
    ]);
    const charged = answers.filter((res) => res.status === 200).map(remaining);
    expect(new Set(charged).size).toBe(6);
    expect(Math.min(...charged)).toBe(before - 7);
    expect(remaining(await poll200())).toBe(before - 8);
  });

  it("hands a refused poll over with what it read: the route's answer, charged once, no statement more", async () => {
    const unknown = orderPath.replace(/[0-9a-f-]{36}$/, '00000000-0000-4000-8000-000000000000');
    const http = request(t.url);
    await earlyInWindow(); // both counts in one budget window (D16)
    const before = remaining(await http.get(bookingPath).set('Authorization', `Bearer ${alice.key}`).expect(200));
    const refused = await http.get(unknown).set('Authorization', `Bearer ${alice.key}`).expect(404);
    expect(refused.body).toEqual({ message: expect.any(String) });
    expect(remaining(refused)).toBe(before - 1);
    expect(statements.of(refused)).toHaveLength(1);
    expect(logLines.filter((line) => line.request_id === refused.headers['x-request-id'])).toHaveLength(1);
  });

  it("answers a member session's poll with as many statements as Express alone", async () => {
    const session = await signInAs(t, staff, alice.email);
    const unknown = bookingPath.replace(/[0-9a-f-]{36}$/, '00000000-0000-4000-8000-000000000000');
    const routes = await expressAlone();
    const sessionPoll = (http: ReturnType<typeof request>, path: string) =>
      http.get(path).set('Authorization', `Bearer ${session}`).set('If-None-Match', '"stale"');
    try {
      for (const [path, status] of [
        [bookingPath, 200],
        [unknown, 404],
      ] as const) {
        const alone = await sessionPoll(routes.http, path);
        const lane = await sessionPoll(request(t.url), path).expect(status);
        expect(lane.body).toEqual(alone.body);
        expect(statements.of(lane)).toEqual(statements.of(alone));
      }
    } finally {
      await closed(routes.server);
    }
  });

  it('answers a failed look-up once, from the one look-up the lane made', async () => {
    const etag = await etagOf(bookingPath);
    const real = t.services.authentication.resolvePolling.bind(t.services.authentication);
    let lookUps = 0;
    t.services.authentication.resolvePolling = () => {
      lookUps++;
      return Promise.reject(new Error('canceling statement due to statement timeout'));
    };
    try {
      await poll(request(t.url), bookingPath, etag).set('X-Request-Id', 'lane-failed-look-up').expect(500);
      expect(lookUps).toBe(1);
      const failures = logLines.filter(
        (line) => line.request_id === 'lane-failed-look-up' && line.msg === 'unhandled error',
      );
      expect(failures).toHaveLength(1);
    } finally {
      t.services.authentication.resolvePolling = real;
    }
  });
});
