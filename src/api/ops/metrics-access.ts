import type { RequestHandler } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { addressMatcher } from '../../config/address-ranges';
import type { AppConfig } from '../../config/app-config';
import { ForbiddenError, UnauthenticatedError } from '../../shared/errors';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Compared by digest, so that neither the token's length nor its bytes show in the time taken. */
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * D15: `/metrics` tells process and traffic details, so outside the sandbox it is served only to a client from
 * METRICS_ALLOW_FROM (its address as Express sees it, behind a proxy on loopback the forwarded one) or with the
 * METRICS_TOKEN bearer token. A wrong token is 401, anyone else 403 (D2).
 */
export function metricsAccess({ env, metrics }: AppConfig): RequestHandler {
  const allowed = addressMatcher(metrics.allowFrom);
  const token = metrics.token === undefined ? undefined : digest(metrics.token);
  return (req, _res, next) => {
    if (env === 'sandbox' || allowed(req.ip)) return next();
    const authorization = req.get('authorization');
    if (authorization === undefined) return next(new ForbiddenError('Metrics are not served to this address.'));
    const presented = authorization.match(BEARER)?.[1];
    if (token && presented !== undefined && timingSafeEqual(digest(presented), token)) return next();
    next(new UnauthenticatedError());
  };
}
