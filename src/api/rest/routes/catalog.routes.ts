import { Router } from 'express';
import type { Services } from '../../../services';
import { route } from '../routing';
import { serializeLanguage, serializePricing } from '../serializers/catalog.serializer';

/** The two public endpoints (contract 4.1, 4.2). */
export function catalogRoutes(services: Services): Router {
  const router = Router();
  route(router, '/languages', {
    get: [(_req, res) => void res.json({ data: services.catalog.listLanguages().map(serializeLanguage) })],
  });
  route(router, '/pricing', {
    get: [async (req, res) => void res.json({ data: serializePricing(await services.catalog.pricing(req.ctx.em)) })],
  });
  return router;
}
