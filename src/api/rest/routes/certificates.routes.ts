import { Router } from 'express';
import type { Services } from '../../../services';
import { limitByAddress } from '../rate-limit';
import { route } from '../routing';
import { serializeCertificate } from '../serializers/certificate.serializer';

/** Public verification of a certificate of accuracy by its code (D20), limited per client address like the catalog. */
export function certificatesRoutes(services: Services): Router {
  const router = Router();
  const { certificates } = services;
  route(router, '/certificates/:code', {
    get: [
      limitByAddress(services),
      async (req, res) => {
        const certificate = await certificates.verify(req.ctx, req.params.code);
        res.json({ data: serializeCertificate(certificate, certificates.verificationUrl(certificate.code)) });
      },
    ],
  });
  return router;
}
