import { Router } from 'express';
import type { Services } from '../../../services';
import { authenticateAccount } from '../authenticate';
import { listEnvelope } from '../pagination';
import { route } from '../routing';
import { serializeOrder } from '../serializers/order.serializer';

/** Contract 4.9-4.12: convert a quote, read and cancel orders. */
export function ordersRoutes(services: Services): Router {
  const router = Router();
  const { orders, files, config } = services;
  const auth = authenticateAccount(services);

  route(router, '/quotes/:id/convert', {
    post: [
      auth,
      async (req, res) => {
        const order = await orders.convert(req.ctx, req.params.id, req.body ?? {});
        res.status(201).json({ data: { id: order.id, number: order.number, status: order.status }, provider_approval_url: order.payment.approvalUrl });
      },
    ],
  });
  route(router, '/orders', {
    get: [auth, async (req, res) => void res.json(listEnvelope(req, config.appUrl, await orders.list(req.ctx, req.query), (view) => serializeOrder(view, files)))],
  });
  route(router, '/orders/:id', {
    get: [auth, async (req, res) => void res.json({ data: serializeOrder(await orders.get(req.ctx, req.params.id), files) })],
  });
  route(router, '/orders/:id/cancel', {
    post: [auth, async (req, res) => void res.json({ data: serializeOrder(await orders.cancel(req.ctx, req.params.id), files) })],
  });
  return router;
}
