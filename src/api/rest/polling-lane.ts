import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { PolledAnswer, PolledRead, Resolved } from '../../domain/accounts/authentication.service';
import type { Ctx } from '../../domain/identity/context';
import { isId } from '../../domain/shared/ids';
import { ForbiddenError, NotFoundError, TooManyAttemptsError, UnauthenticatedError } from '../../shared/errors';
import type { Services } from '../../services';
import { tagRouteOf } from '../http/metrics';
import { announcesBody } from '../http/request-body';
import type { StartRequest } from '../http/request-start';
import { admitPartner, resolvedAhead } from './authenticate';
import { pollReads, strongTag, tagHeaders, unchangedTag } from './conditional';
import { chargeNothing, chargeRequest } from './rate-limit';

/** The service of a polled resource: what a GET of it polls, its version and its answer (D23). */
interface PolledService<T extends { version: string }> {
  polled(id: string, reads: PolledRead['reads']): PolledRead;
  readVersion(ctx: Ctx, id: unknown, known?: string | null): Promise<string | null>;
  get(ctx: Ctx, id: unknown, known?: PolledAnswer | null): Promise<T>;
}

/** A polled path: its route's pattern, its service and the body its route answers (`orders.routes.ts`, `bookings.routes.ts`). */
export interface PolledRoute<T extends { version: string } = { version: string }> {
  pattern: string;
  service: PolledService<T>;
  body(found: T): unknown;
}

/** What the routes answer as a refusal of their own (401, 403, 404, 429): handed over to be refused there. */
const REFUSALS = [UnauthenticatedError, ForbiddenError, NotFoundError, TooManyAttemptsError];

export interface LaneDeps {
  services: Services;
  /** The polled paths, as their routes declare them. */
  routes: PolledRoute[];
  /** Starts a request as Express's first middleware does, so that Express keeps it when it is handed over. */
  start: StartRequest;
  /** What `browserAccess()` sets on an answer to a request without an `Origin` (`securityHeaders()`). */
  headers: [string, string][];
}

/** A request the lane may answer: what it polls and with what. */
interface Poll {
  route: PolledRoute & { prefix: string };
  id: string;
  condition: string | undefined;
  authorization: string | undefined;
}

/** An answer the lane made: a 304 or the route's 200, with its headers. */
interface LaneAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  json?: string;
}

/**
 * The requests polled all day (D23), answered in front of Express: `GET /orders/{id}` and
 * `GET /interpretation-bookings/{id}`. Express's entry and middleware cost more CPU than a poll's own work (README,
 * "How fast"); here it is the credential's look-up (which, with an API key, reads the version of a conditional
 * request or the answer of one that is not), the checks of `authenticateAccount()` and `answerVersioned()`, the
 * route's budget, headers, body, log line and metric.
 *
 * Any other request goes to Express untouched: another method or path, a query, a body, an `Origin` (CORS), a spent
 * credential. So does a poll the routes refuse (no or a bad credential, an account not approved, a role refused, an
 * unknown id, a spent budget) or that fails, with what the lane resolved (`resolvedAhead()`), so that the route does
 * not look the credential up again, and with the request it started (`requestStart()`): one request id, one log line,
 * one metric, and the budget charged once, by the route. The lane's answers are compared with the routes' in
 * test/e2e/polling-lane.e2e.test.ts.
 */
export function pollingLane({ services, routes, start, headers }: LaneDeps, express: RequestListener): RequestListener {
  const lanes = routes.map((route) => ({ ...route, prefix: route.pattern.slice(0, -':id'.length) }));

  const pollOf = (req: IncomingMessage): Poll | undefined => {
    const { 'if-none-match': condition, authorization } = req.headers;
    if (req.method !== 'GET' || req.headers.origin !== undefined) return undefined;
    if (announcesBody(req)) return undefined;
    const route = lanes.find(({ prefix }) => req.url!.startsWith(prefix));
    const id = route && req.url!.slice(route.prefix.length);
    if (!route || !isId(id)) return undefined;
    // A credential spent this window is refused by the routes before any look-up (D24).
    try {
      services.rateLimits.ensureCredentialLeft(authorization);
    } catch {
      return undefined;
    }
    return { route, id, condition, authorization };
  };

  /** The route's answer to an admitted poll: a 304 not charged (D23), or the answer, charged (D16). */
  const answerOf = async (ctx: Ctx, req: IncomingMessage, poll: Poll, resolved: Resolved): Promise<LaneAnswer> => {
    const { route, id, condition, authorization } = poll;
    const { actor, bucket } = admitPartner(services, authorization, resolved.actor);
    ctx.actor = actor;
    if (condition !== undefined) {
      const version = await route.service.readVersion(ctx, id, resolved.version);
      resolvedAhead(req, Promise.resolve({ ...resolved, version }));
      if (version === null) throw new NotFoundError(); // the route's 404, from the version handed over
      const etag = unchangedTag(condition, version);
      if (etag) return { status: 304, headers: { ...(await chargeNothing(services, bucket)), ...tagHeaders(etag) } };
    }
    const found = await route.service.get(ctx, id, resolved.answer);
    const json = JSON.stringify(route.body(found));
    const budget = await chargeRequest(services, bucket);
    return { status: 200, headers: { ...budget, ...tagHeaders(strongTag(found.version)), ...jsonHeaders(json) }, json };
  };

  /** Answers the poll, or false when the routes must. */
  const answer = async (req: IncomingMessage, res: ServerResponse, poll: Poll): Promise<boolean> => {
    const ctx = start(req, res);
    const resolving = services.authentication.resolvePolling(
      ctx.em,
      poll.authorization,
      poll.route.service.polled(poll.id, pollReads(poll.condition)),
    );
    resolvedAhead(req, resolving);
    const resolved = await resolving; // a failure: the route answers it from the same promise
    let answered: LaneAnswer | undefined;
    try {
      answered = await answerOf(ctx, req, poll, resolved);
    } catch (error) {
      // A refusal is the routes' to answer, as they would have; anything else they answer once, not try again.
      if (!REFUSALS.some((refusal) => error instanceof refusal)) resolvedAhead(req, Promise.reject(error));
    }
    if (!answered) {
      ctx.actor = null;
      return false;
    }
    tagRouteOf(res, poll.route.pattern);
    for (const [name, value] of headers) res.setHeader(name, value);
    res.writeHead(answered.status, answered.headers).end(answered.json);
    return true;
  };

  return (req, res) => {
    const poll = pollOf(req);
    if (!poll) return express(req, res);
    void answer(req, res, poll)
      .catch(() => false)
      .then((answered) => void (answered || express(req, res)));
  };
}

/** What Express's `res.json()` says of a JSON body. */
const jsonHeaders = (json: string) => ({
  'Content-Type': 'application/json; charset=utf-8',
  'Content-Length': String(Buffer.byteLength(json)),
});
