import { randomBytes } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { securityHeaders } from '../../src/api/http/browser-access';
import { createMetrics } from '../../src/api/http/metrics';
import { requestStart } from '../../src/api/http/request-start';
import { notModifiedLane } from '../../src/api/rest/not-modified-lane';
import { Account } from '../../src/domain/identity/account.entity';
import { createLogger } from '../../src/shared/logger';
import { capturedLogs } from '../helpers/captured-logs';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { signInAs } from '../helpers/members';
import { insertOrder } from '../helpers/rows';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D23: a conditional poll whose tag still matches is answered in front of Express (src/api/rest/not-modified-lane.ts).
 * Its answer, log line and metric are the routes' own; anything else reaches Express.
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
  const lane = notModifiedLane({ services: t.services, start, headers: securityHeaders(t.config) }, express);
  const server = createServer(lane).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { http: request(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), handedOver, server };
}

describe('the not-modified lane (D23)', () => {
  it('answers a poll whose tag still matches itself, and hands everything else to Express', async () => {
    const { http, handedOver, server } = await laneBefore();
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
        expect(handedOver).toEqual([]);
      }
      const etag = await etagOf(bookingPath);
      const id = bookingPath.split('/')[4];
      const others = [
        http.get(bookingPath).set('Authorization', `Bearer ${alice.key}`),
        poll(http, bookingPath, '"stale"'),
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
    }
  });

  it("answers with the routes' headers, log line and metric", async () => {
    const metric = async (route: string) =>
      Number(
        new RegExp(`http_request_duration_seconds_count\\{method="GET",route="${route}",status="304"\\} (\\d+)`).exec(
          (await t.rest.get('/metrics').expect(200)).text,
        )?.[1] ?? 0,
      );
    for (const [path, route] of [
      [bookingPath, '/api/v1/interpretation-bookings/:id'],
      [orderPath, '/api/v1/orders/:id'],
    ]) {
      const etag = await etagOf(path);
      const before = await metric(route);
      const http = request(t.url);
      const lane = await poll(http, path, etag).expect(304);
      // A zero-length body is no body to the routes, but the lane leaves any body to Express.
      const routes = await poll(http, path, etag).set('Content-Length', '0').expect(304);
      const compared = ({ date, 'x-request-id': id, ...headers }: Record<string, string>) => (
        expect(id).toBeDefined(),
        headers
      );
      expect(compared(lane.headers)).toEqual(compared(routes.headers));
      const lineOf = (res: request.Response) => {
        const { request_id, duration_ms, time, ...line } = logLines.find(
          (l) => l.request_id === res.headers['x-request-id'],
        )!;
        expect([duration_ms, time]).toEqual([expect.any(Number), expect.any(Number)]);
        return line;
      };
      expect(lineOf(lane)).toEqual({ ...lineOf(routes), account_id: alice.id, status: 304, path });
      expect(await metric(route)).toBe(before + 2);
      expect(statements.of(lane)).toHaveLength(1);
    }
  });

  it('hands a changed resource over as one request: one id, one log line, the key looked up once', async () => {
    const res = await poll(request(t.url), bookingPath, '"stale"').set('X-Request-Id', 'lane-handed-over').expect(200);
    expect(res.headers['x-request-id']).toBe('lane-handed-over');
    expect(logLines.filter((line) => line.request_id === 'lane-handed-over')).toHaveLength(1);
    expect(statements.of(res)).toEqual([
      expect.stringMatching(/from "accounts"/),
      expect.stringMatching(/FROM interpretation_bookings/),
    ]);
  });

  it("hands a member session's poll over with the version it read, as many statements as Express alone", async () => {
    const session = await signInAs(t, staff, alice.email);
    const unknown = bookingPath.replace(/[0-9a-f-]{36}$/, '00000000-0000-4000-8000-000000000000');
    const expressAlone = createServer(t.app.express).listen(0, '127.0.0.1');
    await new Promise((resolve) => expressAlone.once('listening', resolve));
    const sessionPoll = (http: ReturnType<typeof request>, path: string) =>
      http.get(path).set('Authorization', `Bearer ${session}`).set('If-None-Match', '"stale"');
    try {
      for (const [path, status] of [
        [bookingPath, 200],
        [unknown, 404],
      ] as const) {
        const alone = await sessionPoll(
          request(`http://127.0.0.1:${(expressAlone.address() as AddressInfo).port}`),
          path,
        );
        const lane = await sessionPoll(request(t.url), path).expect(status);
        expect(statements.of(lane)).toEqual(statements.of(alone));
      }
    } finally {
      expressAlone.closeAllConnections();
      await new Promise((resolve) => expressAlone.close(resolve));
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
