import { Router } from 'express';
import { NotFoundError } from '../../shared/errors';
import type { Services } from '../../services';
import { limitByAddress } from '../rest/rate-limit';
import { route } from '../rest/routing';
import { unknownCodePage, VERIFY_PAGE_CSP, verifyPage } from './verify-page';

/** `GET /verify/{code}` (D20): the public page the certificate's URL opens; HTML with no outside assets. */
export function verifyRoutes(services: Services): Router {
  const router = Router();
  const operator = services.config.company;
  route(router, '/verify/:code', {
    get: [
      limitByAddress(services),
      async (req, res) => {
        res.type('html').set({
          'Content-Security-Policy': VERIFY_PAGE_CSP,
          'Cache-Control': 'no-cache',
          'X-Content-Type-Options': 'nosniff',
        });
        try {
          res.send(verifyPage(operator, await services.certificates.verify(req.ctx, req.params.code)));
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
          res.status(404).send(unknownCodePage(operator));
        }
      },
    ],
  });
  return router;
}
