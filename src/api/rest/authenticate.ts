import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { PolledRead, Resolved } from '../../domain/accounts/authentication.service';
import type { AccountActor, Actor } from '../../domain/identity/context';
import { approvedAccount } from '../../domain/identity/guards';
import { addressBucket, partnerBucket } from '../../domain/rate-limits/rate-limit.service';
import type { Services } from '../../services';
import { keepPolled, polledRead } from './conditional';
import { idempotency } from './idempotency';
import { countRequest, refuseSpentCredential } from './rate-limit';

/**
 * REST v1 needs an approved account's key on every endpoint but the catalog (D13; the `bearer` security scheme of the OpenAPI document); each key's
 * requests are rate limited (D16), those that fail authentication per client address (D24), and every
 * authenticated POST then honours Idempotency-Key (D9). On the path of an order or a booking (`polls`, what its id
 * names), an API key's look-up also reads the version a conditional request compares, or the answer (D23).
 */
export function authenticateAccount(
  services: Services,
  polls?: (id: string, reads: PolledRead['reads']) => PolledRead,
): RequestHandler {
  const idempotent = idempotency(services);
  return async (req, res, next) => {
    const authorization = req.get('authorization');
    refuseSpentCredential(services, res, authorization);
    const polled = polls && polledRead(req, polls);
    const resolved = await ((req as Ahead)[RESOLVED] ??
      services.authentication.resolvePolling(req.ctx.em, authorization, polled));
    req.ctx.actor = resolved.actor;
    keepPolled(res, resolved);
    // No key or a bad one spends the client address's budget, as anonymous GraphQL does (D24): a flood of bad keys
    // is answered 429, and a repeated bad key is not even looked up (KeyMisses).
    if (!req.ctx.actor) await countRequest(services, res, addressBucket(req.ip));
    await countRequest(services, res, admitPartner(services, authorization, req.ctx.actor).bucket);
    if (req.method === 'POST') return idempotent(req, res, next);
    next();
  };
}

/**
 * The approved account a credential names, and the budget its requests spend (D16), remembered so that a spent
 * credential is refused before its look-up (D24). The routes and the polling lane (D23) both admit a partner
 * here, so that what one checks the other does.
 */
export function admitPartner(
  services: Services,
  authorization: string | undefined,
  actor: Actor | null,
): { actor: AccountActor; bucket: string } {
  const account = approvedAccount(actor);
  const bucket = partnerBucket(account);
  services.rateLimits.remember(authorization!, bucket);
  return { actor: account, bucket };
}

const RESOLVED = Symbol('resolved ahead');
type Ahead = { [RESOLVED]?: Promise<Resolved> };

/**
 * What the polling lane (D23) resolved of a poll it hands over because the routes refuse it or it failed, with what
 * the look-up read (the version or the answer), or the failure it met: the route takes it instead of looking the
 * credential up again, and a failed look-up is answered once, not tried twice.
 */
export function resolvedAhead(req: IncomingMessage, resolved: Promise<Resolved>): void {
  resolved.catch(() => undefined); // the route hears a failure when it awaits; a route that never does loses nothing
  (req as Ahead)[RESOLVED] = resolved;
}

/**
 * A path staff tools open too (a payment's receipt, D31): a staff credential passes, unlimited as on GraphQL (D24),
 * and the service checks its role; any other credential, or none, is a partner's, as `authenticateAccount` admits
 * it (looked up once: the look-up made here is handed on).
 */
export function authenticateAccountOrStaff(services: Services): RequestHandler {
  const partner = authenticateAccount(services);
  return async (req, res, next) => {
    const authorization = req.get('authorization');
    refuseSpentCredential(services, res, authorization);
    const resolving = services.authentication.resolvePolling(req.ctx.em, authorization);
    const { actor } = await resolving;
    if (actor?.kind !== 'staff') {
      resolvedAhead(req, resolving);
      return partner(req, res, next);
    }
    req.ctx.actor = actor;
    next();
  };
}
