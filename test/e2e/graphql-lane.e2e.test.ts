import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { GRAPHQL_PATH, graphqlLane } from '../../src/api/graphql/graphql-lane';
import { createGraphQLDoor, type GraphQLDoor } from '../../src/api/graphql/server';
import { securityHeaders } from '../../src/api/http/browser-access';
import { jsonBody } from '../../src/api/http/json-body';
import { createMetrics } from '../../src/api/http/metrics';
import { requestStart } from '../../src/api/http/request-start';
import { Account } from '../../src/domain/identity/account.entity';
import { createLogger } from '../../src/shared/logger';
import { capturedLogs } from '../helpers/captured-logs';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { earlyInWindow } from '../helpers/rate-window';
import { postPieces } from '../helpers/raw-post';
import { insertOrder } from '../helpers/rows';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D23: a GraphQL request posted as plain JSON without an `Origin` (what integrations send) is answered in front of
 * Express (src/api/graphql/graphql-lane.ts), with Express's own functions. Its answers, refusals, budget, headers,
 * log line and metric are the ones Express alone gives; anything else, and a body the reader refuses, reaches Express.
 */
const { logger: capturing, lines: logLines } = capturedLogs();
const statements = new StatementLog();
let t: TestApp;
let alice: TestAccount;
let orderId: string;
let door: GraphQLDoor;
let alone: { http: () => Http; server: Server };
beforeAll(async () => {
  t = await startTestApp({ workers: false, logger: capturing, onQuery: statements.record });
  alice = await createApprovedAccount(t, await createStaffToken(t));
  const em = t.orm.em.fork();
  orderId = (await insertOrder(em, await em.findOneOrFail(Account, { id: alice.id }))).id;
  door = await createGraphQLDoor(t.services, createLogger('silent'), () => '127.0.0.1');
  alone = await serving(t.app.express);
});
afterAll(async () => {
  await door.stop();
  await closed(alone.server);
  await t.close();
});

const POLL = `query ($id: ID!) { order(id: $id) { id number status totalCents currency } }`;
const MEGABYTE = 1024 * 1024;

type Http = ReturnType<typeof request>;

/** A request as an integration posts it, to the service's listener (the lane first) or to Express alone. */
const post = (http: Http, body: string, headers: Record<string, string> = {}) => {
  const req = http.post(GRAPHQL_PATH).set('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req.send(body);
};
const poll = () => JSON.stringify({ query: POLL, variables: { id: orderId } });

/** Headers that differ between two answers by nature: their date, request id and what the budget has left (not whether). */
const compared = ({ date, 'x-request-id': id, 'x-ratelimit-remaining': left, ...headers }: Record<string, string>) => (
  expect(id).toBeDefined(),
  { ...headers, budget: left === undefined ? 'not counted' : 'counted' }
);
const remaining = (res: request.Response) => Number(res.headers['x-ratelimit-remaining']);
/** The body, its request ids (D2's `request_id`, in an error's extensions) left out. */
const bodyOf = (res: request.Response) => res.text.replaceAll(String(res.headers['x-request-id']), '<id>');

describe('the GraphQL lane', () => {
  it('answers as Express alone does: data, refusals, malformed and refused bodies, each charged alike', async () => {
    await earlyInWindow();
    const key = { Authorization: `Bearer ${alice.key}` };
    const cases: [string, string, Record<string, string>][] = [
      ['a poll', poll(), key],
      ['a poll in UTF-8 said so', poll(), { ...key, 'Content-Type': 'application/json; charset=utf-8' }],
      ['a catalog read without a key', JSON.stringify({ query: '{ __typename }' }), {}],
      ['an unknown key', poll(), { Authorization: 'Bearer ltk_test_unknown' }],
      ['a document that does not parse', JSON.stringify({ query: '{ order(' }), key],
      ['a field that does not exist', JSON.stringify({ query: '{ nothing }' }), key],
      ['malformed JSON', '{"query": ', key],
      ['a JSON string', '"{ __typename }"', key],
      ['an empty body', '', key],
      ['a body nested too deep', `{"query":"{ __typename }","variables":${'{"a":'.repeat(70)}1${'}'.repeat(70)}}`, key],
      ['a body over the limit', JSON.stringify({ query: `{ __typename }${' '.repeat(MEGABYTE)}` }), key],
    ];
    for (const [name, body, headers] of cases) {
      // Express, the lane, Express again: the same bucket, so each one's charge is what the one before it left less.
      const before = await post(alone.http(), body, headers);
      const lane = await post(t.rest.raw(), body, headers);
      const express = await post(alone.http(), body, headers);
      const seen = (res: request.Response) => ({ name, status: res.status, body: bodyOf(res) });
      expect(seen(lane)).toEqual(seen(express));
      expect({ name, headers: compared(lane.headers) }).toEqual({ name, headers: compared(express.headers) });
      const charged = (res: request.Response, after: request.Response) => ({
        name,
        charged: remaining(res) - remaining(after),
      });
      if (lane.headers['x-ratelimit-remaining'] !== undefined)
        expect(charged(before, lane)).toEqual(charged(lane, express));
    }
  });

  it("spends an anonymous caller's budget by the address Express reads, a forwarded one behind a local proxy", async () => {
    await earlyInWindow();
    const anonymous = JSON.stringify({ query: '{ __typename }' });
    const from = (http: Http, address: string) => post(http, anonymous, { 'X-Forwarded-For': address });
    const first = remaining(await from(t.rest.raw(), '203.0.113.7').expect(200));
    expect(remaining(await from(alone.http(), '203.0.113.7').expect(200))).toBe(first - 1);
    expect(remaining(await from(t.rest.raw(), '203.0.113.7').expect(200))).toBe(first - 2);
    expect(remaining(await from(t.rest.raw(), '203.0.113.8').expect(200))).toBe(first);
  });

  it('writes one log line and one metric for each request, as Express alone does, answered or refused', async () => {
    const metric = async (route: string, status: number) =>
      Number(
        new RegExp(
          `http_request_duration_seconds_count\\{method="POST",route="${route}",status="${status}"\\} (\\d+)`,
        ).exec((await t.rest.get('/metrics').expect(200)).text)?.[1] ?? 0,
      );
    const lineOf = (id: string) => {
      const lines = logLines.filter((line) => line.request_id === id);
      expect(lines).toHaveLength(1);
      const { request_id, duration_ms, time, ...line } = lines[0];
      expect([duration_ms, time]).toEqual([expect.any(Number), expect.any(Number)]);
      return line;
    };
    // A refused body never reaches the door's mount in Express: its metric is an unmatched request's there.
    for (const [name, body, route, status, account] of [
      ['answered', poll(), '/graphql', 200, alice.id],
      ['refused', '{', 'unmatched', 400, undefined],
    ] as const) {
      const before = await metric(route, status);
      const headers = (way: string) => ({ Authorization: `Bearer ${alice.key}`, 'X-Request-Id': `${way}-${name}` });
      await post(t.rest.raw(), body, headers('lane')).expect(status);
      await post(alone.http(), body, headers('alone')).expect(status);
      expect(lineOf(`lane-${name}`)).toEqual({
        ...lineOf(`alone-${name}`),
        path: '/graphql',
        status,
        account_id: account,
      });
      expect(await metric(route, status)).toBe(before + 2);
    }
  });

  it('hands Express what it does not answer: other requests as they came, refused bodies after reading them', async () => {
    const handedOver: string[] = [];
    const express: RequestListener = (req, res) => {
      handedOver.push(`${req.method} ${req.url} ${req.headers['content-type'] ?? ''}`);
      res.writeHead(299).end();
    };
    const metrics = createMetrics(t.orm, t.services.documents, t.queue.metrics);
    const start = requestStart(t.orm, metrics, createLogger('silent')).start;
    const lane = graphqlLane(
      { start, headers: securityHeaders(t.config), body: jsonBody(MEGABYTE), door, logger: createLogger('silent') },
      express,
    );
    const { http, server } = await serving(lane);
    try {
      const key = { Authorization: `Bearer ${alice.key}` };
      const answered = await post(http(), poll(), key).expect(200);
      expect(answered.body.data.order).toMatchObject({ id: orderId });
      expect(answered.headers).toMatchObject({
        'x-frame-options': 'DENY',
        'content-type': expect.stringMatching(/json/),
      });
      // Every plain JSON body is the lane's, however it comes: in pieces, empty, its charset quoted, its coding named.
      const chunked = await postPieces(`${server.url}${GRAPHQL_PATH}`, [poll().slice(0, 20), poll().slice(20)], {
        ...key,
        'Content-Type': 'application/json',
      });
      expect([chunked.status, JSON.parse(chunked.body).data.order.id]).toEqual([200, orderId]);
      await post(http(), '', key).expect(400);
      await post(http(), poll(), { ...key, 'Content-Type': 'application/json; charset="UTF-8"' }).expect(200);
      await post(http(), poll(), { ...key, 'Content-Encoding': 'identity' }).expect(200);
      expect(handedOver).toEqual([]);
      const others = [
        post(http(), poll(), { ...key, Origin: 'https://portal.example.test' }),
        post(http(), poll(), { ...key, 'Content-Type': 'text/plain' }),
        post(http(), poll(), { ...key, 'Content-Type': 'application/json; charset=latin1' }),
        post(http(), poll(), { ...key, 'Content-Encoding': 'gzip' }),
        http().post(`${GRAPHQL_PATH}?x=1`).set('Content-Type', 'application/json').send(poll()),
        http().post(`${GRAPHQL_PATH}/`).set('Content-Type', 'application/json').send(poll()),
        http().get(`${GRAPHQL_PATH}?query=${encodeURIComponent('{ __typename }')}`),
        http().post(GRAPHQL_PATH).field('operations', poll()),
      ];
      for (const other of others) await other.expect(299);
      expect(handedOver).toHaveLength(others.length);
      handedOver.length = 0;
      // A body the reader refuses was read: what Express gets is the refusal, which its reader hands to the error handler.
      for (const refused of ['{', JSON.stringify({ query: ' '.repeat(MEGABYTE) })]) {
        await post(http(), refused, key).expect(299);
      }
      expect(handedOver).toEqual([`POST ${GRAPHQL_PATH} application/json`, `POST ${GRAPHQL_PATH} application/json`]);
    } finally {
      await closed(server);
    }
    // An answer that fails before anything is written is handed over too, for Express's mount to answer its failure.
    handedOver.length = 0;
    const failing = graphqlLane(
      {
        start,
        headers: securityHeaders(t.config),
        body: jsonBody(MEGABYTE),
        door: { ...door, answer: () => Promise.reject(new Error('the door failed')) },
        logger: createLogger('silent'),
      },
      express,
    );
    const failed = await serving(failing);
    try {
      await post(failed.http(), poll(), { Authorization: `Bearer ${alice.key}` }).expect(299);
      expect(handedOver).toEqual([`POST ${GRAPHQL_PATH} application/json`]);
    } finally {
      await closed(failed.server);
    }
  });

  it('stands in for all that Express runs ahead of the doors, so that a middleware added there is added to the lanes', () => {
    // What the lanes run (graphql-lane.ts, polling-lane.ts): the request's start, the path check, the browser access
    // (its security headers; a request with an `Origin` goes to Express), the uploads' reader on /graphql (a multipart
    // request goes to Express) and the JSON body. A new layer here fails this test until the lanes run it too.
    const { stack } = (t.app.express as unknown as { router: { stack: { name: string; slash: boolean }[] } }).router;
    const ahead = stack.slice(
      0,
      stack.findIndex((layer) => layer.name === 'router'),
    );
    expect(ahead.map(({ name, slash }) => `${name}${slash ? '' : ' (one path)'}`)).toEqual([
      'middleware', // requestStart(): the request's id, log line and metric
      'safePath',
      '<anonymous>', // browserAccess(): the security headers
      'corsMiddleware', // browserAccess(): CORS, for a request with an Origin
      '<anonymous> (one path)', // graphqlUploads() on /graphql, for a multipart request
      'middleware', // jsonBody()
    ]);
  });

  it('answers a request once when the lane and Express both ask the door for it', async () => {
    const metrics = createMetrics(t.orm, t.services.documents, t.queue.metrics);
    const start = requestStart(t.orm, metrics, createLogger('silent')).start;
    const body = jsonBody(MEGABYTE);
    let both: Promise<PromiseSettledResult<void>[]> | undefined;
    // Both ways of asking at once, as a failed answer handed over would: the second must not answer again.
    const twice: RequestListener = (req, res) => {
      const started = Object.assign(req, { ctx: start(req, res) });
      both = body.readAhead(req).then(() => Promise.allSettled([door.answer(started, res), door.answer(started, res)]));
    };
    const { http, server } = await serving(twice);
    try {
      const key = { Authorization: `Bearer ${alice.key}` };
      const before = remaining(await post(t.rest.raw(), poll(), key).expect(200));
      const res = await post(http(), poll(), key).expect(200);
      expect(res.body.data.order).toMatchObject({ id: orderId });
      expect((await both)!.map(({ status }) => status)).toEqual(['fulfilled', 'fulfilled']);
      // Charged once: the next poll finds one charge more, its own.
      expect(remaining(await post(t.rest.raw(), poll(), key).expect(200))).toBe(before - 2);
    } finally {
      await closed(server);
    }
  });
});

async function serving(listener: RequestListener): Promise<{ http: () => Http; server: Server & { url: string } }> {
  const server = createServer(listener).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { http: () => request(url), server: Object.assign(server, { url }) };
}

function closed(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
