import type { RequestHandler, Response } from 'express';
import { addressBucket, type RateLimitState } from '../../domain/rate-limits/rate-limit.service';
import { TooManyAttemptsError } from '../../shared/errors';
import type { Services } from '../../services';
import { rateLimitHeaders } from '../http/rate-limit-headers';

/** A REST request's share of the budget it shares with GraphQL (D24). */
const REQUEST_COST = 1;

/** Where a request keeps how to give back what it was charged. */
const CHARGE = Symbol('rate limit charge');
type Charged = { [CHARGE]?: () => RateLimitState };

/** A 304 is not charged (D23): conditional polling is the cheap way. Gives the request back and says so in the headers. */
export function refundRequest(res: Response): void {
  const refund = (res.locals as Charged)[CHARGE];
  if (!refund) return;
  delete (res.locals as Charged)[CHARGE];
  res.set(rateLimitHeaders(refund()));
}

/**
 * A 304's budget for an answer made without the routes (the polling lane, D23): a request spent and given back at
 * once, as `countRequest()` and `refundRequest()` do, so that a spent bucket is still refused (TooManyAttemptsError)
 * and the headers show the budget untouched.
 */
export async function chargeNothing(services: Services, bucket: string): Promise<Record<string, string>> {
  const { window } = await services.rateLimits.consume(bucket, REQUEST_COST);
  return rateLimitHeaders(services.rateLimits.refund(bucket, REQUEST_COST, window));
}

/** An answer's budget for an answer made without the routes (the polling lane, D23): a request spent (D16). */
export async function chargeRequest(services: Services, bucket: string): Promise<Record<string, string>> {
  return rateLimitHeaders(await services.rateLimits.consume(bucket, REQUEST_COST));
}

/**
 * Spends a request from `bucket` (D16) and tells the client where it stands in `X-RateLimit-*` headers, on
 * the 429 too (TooManyAttemptsError, answered with `Retry-After` by the error handler).
 */
export async function countRequest(services: Services, res: Response, bucket: string): Promise<void> {
  try {
    const state = await services.rateLimits.consume(bucket, REQUEST_COST);
    res.set(rateLimitHeaders(state));
    (res.locals as Charged)[CHARGE] = () => services.rateLimits.refund(bucket, REQUEST_COST, state.window);
  } catch (error) {
    if (error instanceof TooManyAttemptsError) res.set(rateLimitHeaders(error.state));
    throw error;
  }
}

/** A key already spent this window is answered 429 before it is looked up (D24). */
export function refuseSpentCredential(services: Services, res: Response, authorization: string | undefined): void {
  try {
    services.rateLimits.ensureCredentialLeft(authorization);
  } catch (error) {
    if (error instanceof TooManyAttemptsError) res.set(rateLimitHeaders(error.state));
    throw error;
  }
}

/** The public catalog is limited per client address. */
export const limitByAddress =
  (services: Services): RequestHandler =>
  async (req, res, next) => {
    await countRequest(services, res, addressBucket(req.ip));
    next();
  };
