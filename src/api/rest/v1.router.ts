import { Router } from 'express';
import type { Services } from '../../services';
import { notFoundHandler } from '../http/error-handler';
import { bodyTypes } from './media-type';
import { openApiDocument } from './openapi/document';
import { route } from './routing';
import { bookingsRoutes } from './routes/bookings.routes';
import { catalogRoutes } from './routes/catalog.routes';
import { filesRoutes } from './routes/files.routes';
import { ordersRoutes } from './routes/orders.routes';
import { quotesRoutes } from './routes/quotes.routes';
import { paypalRoutes } from './routes/paypal.routes';
import { sandboxCheckoutRoutes } from './routes/sandbox-checkout.routes';
import { PayPalPaymentProvider } from '../../providers/payment/paypal-payment-provider';
import { SandboxPaymentProvider } from '../../providers/payment/sandbox-payment-provider';
import { meRoutes } from './routes/me.routes';

/** REST v1, mounted at /api/v1 (D1). */
export function v1Router(services: Services): Router {
  const router = Router();
  // What REST v1 reads: JSON, uploads, and the sandbox checkout's HTML forms.
  router.use(bodyTypes('application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'));
  const openApi = openApiDocument(`${services.config.appUrl}/api/v1`);
  route(router, '/openapi.json', { get: [(_req, res) => void res.json(openApi)] });
  router.use(catalogRoutes(services));
  router.use(meRoutes(services));
  router.use(filesRoutes(services));
  router.use(quotesRoutes(services));
  router.use(ordersRoutes(services));
  router.use(bookingsRoutes(services));
  const provider = services.payments.provider;
  if (provider instanceof SandboxPaymentProvider) router.use(sandboxCheckoutRoutes(services));
  if (provider instanceof PayPalPaymentProvider) router.use(paypalRoutes(services, provider));
  router.use(notFoundHandler);
  return router;
}
