import { Router } from 'express';
import { requireAccount } from '../../../domain/identity/guards';
import type { Services } from '../../../services';
import { authenticateAccount } from '../authenticate';
import { answerJson } from '../conditional';
import { route } from '../routing';
import { serializeAccount } from '../serializers/account.serializer';

/** `GET /me`: lets an integrator check its key and see which account it belongs to (GraphQL `me`). */
export function meRoutes(services: Services): Router {
  const router = Router();
  route(router, '/me', {
    get: [
      authenticateAccount(services),
      (req, res) => answerJson(req, res, { data: serializeAccount(requireAccount(req.ctx.actor, 'account.read')) }),
    ],
  });
  return router;
}
