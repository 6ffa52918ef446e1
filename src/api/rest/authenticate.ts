import type { RequestHandler } from 'express';
import { requireAccount } from '../../domain/accounts/authentication.service';
import type { Services } from '../../services';

/** REST v1 needs an approved account's key on every endpoint but the catalog (contract section 5). */
export function authenticateAccount(services: Services): RequestHandler {
  return async (req, _res, next) => {
    req.ctx.actor = await services.authentication.resolve(req.ctx.em, req.get('authorization'));
    requireAccount(req.ctx.actor);
    next();
  };
}
