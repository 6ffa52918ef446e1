import { Router } from 'express';
import type { Services } from '../../../services';
import { answerJson } from '../conditional';
import { limitByAddress } from '../rate-limit';
import { route } from '../routing';
import { serializeLanguage, serializePricing } from '../serializers/catalog.serializer';

/** The two public endpoints, `listLanguages` and `getPricing`, rate limited per client address (D16). */
export function catalogRoutes(services: Services): Router {
  const router = Router();
  const limited = limitByAddress(services);
  route(router, '/languages', {
    get: [
      limited,
      (req, res) =>
        answerJson(req, res, {
          data: services.catalog
            .listLanguages()
            .map((language) => serializeLanguage(language, services.standardOffer.servicesOf(language.code))),
        }),
    ],
  });
  route(router, '/pricing', {
    get: [
      limited,
      async (req, res) => answerJson(req, res, { data: serializePricing(await services.catalog.pricing(req.ctx.em)) }),
    ],
  });
  return router;
}
