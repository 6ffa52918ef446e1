import { Router } from 'express';
import type { Services } from '../../services';
import { notFoundHandler } from '../http/error-handler';
import { readBodyTypes } from './media-type';
import { openApiDocument } from './openapi/document';
import type { PolledRoute } from './polling-lane';
import { route } from './routing';
import { BOOKING_PATH, bookingsRoutes, polledBookings } from './routes/bookings.routes';
import { catalogRoutes } from './routes/catalog.routes';
import { certificatesRoutes } from './routes/certificates.routes';
import { filesRoutes } from './routes/files.routes';
import { ORDER_PATH, ordersRoutes, polledOrders } from './routes/orders.routes';
import { orderMessagesRoutes } from './routes/order-messages.routes';
import { quotesRoutes } from './routes/quotes.routes';
import { paymentsRoutes } from './routes/payments.routes';
import { onAccountRoutes } from './routes/on-account.routes';
import { invoicesRoutes } from './routes/invoices.routes';
import { receiptsRoutes } from './routes/receipts.routes';
import { sandboxCheckoutRoutes } from './routes/sandbox-checkout.routes';
import { shippingRoutes } from './routes/shipping.routes';
import { meRoutes } from './routes/me.routes';

/** Where REST v1 is mounted (D1). */
export const V1_PATH = '/api/v1';

/** The paths polled all day (D23), as the polling lane answers them in front of Express. */
export const polledRoutes = (services: Services): PolledRoute[] => [
  { pattern: `${V1_PATH}${ORDER_PATH}`, ...polledOrders(services) },
  { pattern: `${V1_PATH}${BOOKING_PATH}`, ...polledBookings(services) },
];

/** REST v1, mounted at `V1_PATH` (D1). */
export function v1Router(services: Services): Router {
  const router = Router();
  // What REST v1 reads: JSON, uploads, and the HTML forms of its checkout pages.
  router.use(readBodyTypes());
  // The polled areas first (D23): a request walks the routes in order until one matches.
  router.use(ordersRoutes(services));
  router.use(bookingsRoutes(services));
  const openApi = openApiDocument(`${services.config.appUrl}/api/v1`);
  route(router, '/openapi.json', { get: [(_req, res) => void res.json(openApi)] });
  router.use(catalogRoutes(services));
  router.use(certificatesRoutes(services));
  router.use(meRoutes(services));
  router.use(filesRoutes(services));
  router.use(quotesRoutes(services));
  router.use(paymentsRoutes(services));
  router.use(onAccountRoutes(services));
  router.use(invoicesRoutes(services));
  router.use(receiptsRoutes(services));
  router.use(shippingRoutes(services));
  router.use(orderMessagesRoutes(services));
  // The sandbox provider's hosted checkout pages are served by this service itself (D1, D9).
  if (services.config.payment.provider === 'sandbox') router.use(sandboxCheckoutRoutes(services));
  router.use(notFoundHandler);
  return router;
}
