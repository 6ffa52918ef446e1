import type { RequestHandler } from 'express';
import { requireAccountId } from '../../domain/identity/guards';
import type { PartnerOperation } from '../../domain/identity/partner-permissions';

/**
 * The caller's role may call `operation` (D27), checked before the operation reads its input, so that a refusal
 * never depends on what was sent: a viewer's invalid quote is 403, not 422. The service checks again.
 */
export const permit =
  (operation: PartnerOperation): RequestHandler =>
  (req, _res, next) => {
    requireAccountId(req.ctx.actor, operation);
    next();
  };
