import type { RequestHandler } from 'express';
import { requireAccountId } from '../../domain/accounts/authentication.service';
import { accountBucket } from '../../domain/rate-limits/rate-limit.service';
import type { Services } from '../../services';
import { idempotency } from './idempotency';
import { countRequest, refuseSpentCredential } from './rate-limit';

/**
 * REST v1 needs an approved account's key on every endpoint but the catalog (contract section 5); each key's
 * requests are rate limited (D16), and every authenticated POST then honours Idempotency-Key (D9).
 */
export function authenticateAccount(services: Services): RequestHandler {
  const idempotent = idempotency(services);
  return async (req, res, next) => {
    const authorization = req.get('authorization');
    refuseSpentCredential(services, res, authorization);
    req.ctx.actor = await services.authentication.resolve(req.ctx.em, authorization);
    const bucket = accountBucket(requireAccountId(req.ctx.actor));
    services.rateLimits.remember(authorization!, bucket);
    countRequest(services, res, bucket);
    if (req.method === 'POST') return idempotent(req, res, next);
    next();
  };
}
