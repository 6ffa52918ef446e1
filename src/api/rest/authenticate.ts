import type { RequestHandler } from 'express';
import { approvedAccount } from '../../domain/accounts/authentication.service';
import { addressBucket, partnerBucket } from '../../domain/rate-limits/rate-limit.service';
import type { Services } from '../../services';
import { idempotency } from './idempotency';
import { countRequest, refuseSpentCredential } from './rate-limit';

/**
 * REST v1 needs an approved account's key on every endpoint but the catalog (D13; the `bearer` security scheme of the OpenAPI document); each key's
 * requests are rate limited (D16), those that fail authentication per client address (D24), and every
 * authenticated POST then honours Idempotency-Key (D9).
 */
export function authenticateAccount(services: Services): RequestHandler {
  const idempotent = idempotency(services);
  return async (req, res, next) => {
    const authorization = req.get('authorization');
    refuseSpentCredential(services, res, authorization);
    req.ctx.actor = await services.authentication.resolve(req.ctx.em, authorization);
    // No key or a bad one spends the client address's budget, as anonymous GraphQL does (D24): a flood of bad keys
    // is answered 429, and a repeated bad key is not even looked up (KeyMisses).
    if (!req.ctx.actor) await countRequest(services, res, addressBucket(req.ip));
    const bucket = partnerBucket(approvedAccount(req.ctx.actor));
    services.rateLimits.remember(authorization!, bucket);
    await countRequest(services, res, bucket);
    if (req.method === 'POST') return idempotent(req, res, next);
    next();
  };
}
