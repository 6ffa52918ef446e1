import { createServer, type RequestListener, type Server } from 'node:http';
import type { HttpTimeouts } from '../../config/app-config';

/**
 * The HTTP server with explicit limits for slow clients (D25): a connection that dribbles its headers or body
 * is answered 408 and closed instead of holding a socket forever. Node checks the limits periodically; the
 * check runs often enough that a limit is enforced within half of itself.
 */
export function createHttpServer(listener: RequestListener, timeouts: HttpTimeouts): Server {
  return createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(timeouts.headersTimeoutMs / 2)),
    },
    listener,
  );
}
