import type { RequestHandler, Response } from 'express';
import { addressBucket } from '../../domain/rate-limits/rate-limit.service';
import { TooManyAttemptsError } from '../../shared/errors';
import type { Services } from '../../services';
import { rateLimitHeaders } from '../http/rate-limit-headers';

/** A REST request's share of the budget it shares with GraphQL (D24). */
const REQUEST_COST = 1;

/**
 * Spends a request from `bucket` (D16) and tells the client where it stands in `X-RateLimit-*` headers, on
 * the 429 too (TooManyAttemptsError, answered with `Retry-After` by the error handler).
 */
export function countRequest(services: Services, res: Response, bucket: string): void {
  try {
    res.set(rateLimitHeaders(services.rateLimits.consume(bucket, REQUEST_COST)));
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
  (req, res, next) => {
    countRequest(services, res, addressBucket(req.ip));
    next();
  };
