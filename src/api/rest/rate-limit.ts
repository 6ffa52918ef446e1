import type { Request, RequestHandler, Response } from 'express';
import type { RateLimitState } from '../../domain/rate-limits/rate-limit.service';
import { TooManyAttemptsError } from '../../domain/shared/errors';
import type { Services } from '../../services';

/**
 * Counts a request against `bucket` (D16) and tells the client where it stands in `X-RateLimit-*` headers, on
 * the 429 too (TooManyAttemptsError, answered with `Retry-After` by the error handler).
 */
export async function countRequest(services: Services, req: Request, res: Response, bucket: string): Promise<void> {
  try {
    setHeaders(res, await services.rateLimits.hit(req.ctx.em, bucket));
  } catch (error) {
    if (error instanceof TooManyAttemptsError) setHeaders(res, error.state);
    throw error;
  }
}

/** The public catalog is limited per client address. */
export const limitByAddress =
  (services: Services): RequestHandler =>
  async (req, res, next) => {
    await countRequest(services, req, res, `address:${req.ip}`);
    next();
  };

function setHeaders(res: Response, state: RateLimitState): void {
  res.set({ 'X-RateLimit-Limit': String(state.limit), 'X-RateLimit-Remaining': String(state.remaining) });
}
