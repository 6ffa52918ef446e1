import type { RequestListener } from 'node:http';
import type { Logger } from '../../shared/logger';
import type { JsonBody } from '../http/json-body';
import { tagRouteOf } from '../http/metrics';
import type { StartRequest } from '../http/request-start';
import type { GraphQLDoor, GraphQLHttpRequest } from './server';

/** Where the GraphQL door is mounted (D1). */
export const GRAPHQL_PATH = '/graphql';

export interface GraphQLLaneDeps {
  /** Starts a request as Express's first middleware does, so that Express keeps it when it is handed over. */
  start: StartRequest;
  /** What `browserAccess()` sets on an answer to a request without an `Origin` (`securityHeaders()`). */
  headers: [string, string][];
  /** The JSON body reader Express runs too: a body is read once, whoever reads it first. */
  body: JsonBody;
  door: GraphQLDoor;
  logger: Logger;
}

/**
 * What an integration sends the GraphQL door (a poll above all, D23), answered in front of Express: a `POST /graphql`
 * with a plain JSON body and no `Origin`. Express's entry and middleware cost such a request about a fifth of its CPU
 * (README, "How fast"); here it runs what Express would run for it, the same functions in the same order: the
 * request's start (id, log line, metric), the security headers, the JSON body (`jsonBody()`), the route's tag and
 * the door's answer (`GraphQLDoor.answer`), whose context, admission and budget are the door's own.
 *
 * Anything else goes to Express untouched: another method or path, a query string, an `Origin` (CORS), a multipart
 * upload, a body that is not plain UTF-8 JSON. So does a body the reader refuses (413, 400) and an answer that fails
 * before anything is written, with the request the lane started: Express's reader and mount take their outcome from
 * the lane's reading and answer, so the error handler answers them once, in the API's shape (D2).
 * test/e2e/graphql-lane.e2e.test.ts compares the lane's answers with Express's, and fails when Express gains a
 * middleware ahead of the doors that the lanes would skip.
 */
export function graphqlLane(
  { start, headers, body, door, logger }: GraphQLLaneDeps,
  express: RequestListener,
): RequestListener {
  return (req, res) => {
    const integration =
      req.method === 'POST' && req.url === GRAPHQL_PATH && req.headers.origin === undefined && body.readsDirectly(req);
    if (!integration) return express(req, res);
    const { requestId } = start(req, res);
    for (const [name, value] of headers) res.setHeader(name, value);
    void body
      .readAhead(req)
      .then((read) => {
        if (!read) return false;
        // Tagged once the body is read, as Express's mount is reached: a refused body is an unmatched request there.
        tagRouteOf(res, GRAPHQL_PATH);
        return door.answer(req as GraphQLHttpRequest, res).then(() => true);
      })
      .catch((error: unknown) => {
        if (!res.headersSent) return false;
        // An answer broken off after its head: nothing can be answered in its place (Express would only cut it too).
        logger.error({ request_id: requestId, err: error }, 'graphql answer broken off');
        res.destroy();
        return true;
      })
      .then((answered) => void (answered || express(req, res)));
  };
}
