import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { PolledRead } from '../../domain/accounts/authentication.service';
import type { Ctx } from '../../domain/identity/context';
import { isId } from '../../domain/shared/ids';
import { ForbiddenError, NotFoundError, TooManyAttemptsError, UnauthenticatedError } from '../../shared/errors';
import type { Services } from '../../services';
import { tagRouteOf } from '../http/metrics';
import { announcesBody } from '../http/request-body';
import type { StartRequest } from '../http/request-start';
import { admitPartner, resolvedAhead } from './authenticate';
import { tagHeaders, unchangedTag } from './conditional';
import { chargeNothing } from './rate-limit';
import { BOOKING_PATH } from './routes/bookings.routes';
import { ORDER_PATH } from './routes/orders.routes';
import { V1_PATH } from './v1.router';

/** The service of a polled resource: what a conditional GET of it polls, and the version its answer has (D23). */
interface PolledService {
  polled(id: string, reads: PolledRead['reads']): PolledRead;
  readVersion(ctx: Ctx, id: unknown, known?: string | null): Promise<string | null>;
}

/** What the routes answer as a refusal of their own (401, 403, 404, 429): handed over to be refused there. */
const REFUSALS = [UnauthenticatedError, ForbiddenError, NotFoundError, TooManyAttemptsError];

export interface LaneDeps {
  services: Services;
  /** Starts a request as Express's first middleware does, so that Express keeps it when it is handed over. */
  start: StartRequest;
  /** What `browserAccess()` sets on an answer to a request without an `Origin` (`securityHeaders()`). */
  headers: [string, string][];
}

/** A request the lane may answer: what it polls and with what. */
interface Poll {
  route: { pattern: string; service: PolledService };
  id: string;
  condition: string;
  authorization: string | undefined;
}

/**
 * The request polled all day (D23), answered in front of Express: a conditional `GET /orders/{id}` or
 * `GET /interpretation-bookings/{id}` whose tag still matches. Express's entry and middleware cost more CPU than the
 * 304 itself (README, "How fast"); here it is the credential's look-up (which reads the version, with an API key),
 * the checks of `authenticateAccount()` and `answerVersioned()`, the route's headers, log line and metric, and no
 * body.
 *
 * Any other request goes to Express untouched: another method or path, a query, a body, an `Origin` (CORS), a spent
 * credential. So does a poll that is no 304 (no or a bad credential, an account not approved, a role refused, an
 * unknown id, a changed tag, an error), with what the lane resolved (`resolvedAhead()`), so that the route does not
 * look the credential up again, and with the request it started (`requestStart()`): one request id, one log line,
 * one metric. The lane's answers are compared with the routes' in test/e2e/not-modified-lane.e2e.test.ts.
 */
export function notModifiedLane({ services, start, headers }: LaneDeps, express: RequestListener): RequestListener {
  const routes = [
    { pattern: `${V1_PATH}${ORDER_PATH}`, service: services.orders },
    { pattern: `${V1_PATH}${BOOKING_PATH}`, service: services.bookings },
  ].map((route) => ({ ...route, prefix: route.pattern.slice(0, -':id'.length) }));

  const pollOf = (req: IncomingMessage): Poll | undefined => {
    const { 'if-none-match': condition, authorization } = req.headers;
    if (req.method !== 'GET' || condition === undefined || req.headers.origin !== undefined) return undefined;
    if (announcesBody(req)) return undefined;
    const route = routes.find(({ prefix }) => req.url!.startsWith(prefix));
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

  /** The 304, or false when the routes must answer. */
  const answer = async (req: IncomingMessage, res: ServerResponse, poll: Poll): Promise<boolean> => {
    const { route, id, condition, authorization } = poll;
    const ctx = start(req, res);
    const resolving = services.authentication.resolvePolling(
      ctx.em,
      authorization,
      route.service.polled(id, 'version'),
    );
    resolvedAhead(req, resolving);
    const resolved = await resolving; // a failure: the route answers it from the same promise
    let notModified: { etag: string; budget: Record<string, string> } | undefined;
    try {
      const { actor, bucket } = admitPartner(services, authorization, resolved.actor);
      ctx.actor = actor;
      const version = await route.service.readVersion(ctx, id, resolved.version);
      resolvedAhead(req, Promise.resolve({ ...resolved, version }));
      const etag = unchangedTag(condition, version);
      if (etag) notModified = { etag, budget: await chargeNothing(services, bucket) };
    } catch (error) {
      // A refusal is the routes' to answer, as they would have; anything else they answer once, not try again.
      if (!REFUSALS.some((refusal) => error instanceof refusal)) resolvedAhead(req, Promise.reject(error));
    }
    if (!notModified) {
      ctx.actor = null;
      return false;
    }
    tagRouteOf(res, route.pattern);
    for (const [name, value] of headers) res.setHeader(name, value);
    res.writeHead(304, { ...notModified.budget, ...tagHeaders(notModified.etag) }).end();
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
