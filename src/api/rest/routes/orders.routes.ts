import { Router } from 'express';
import type { Services } from '../../../services';
import { authenticateAccount } from '../authenticate';
import { answerJson, answerVersioned } from '../conditional';
import { listEnvelope } from '../pagination';
import { route } from '../routing';
import { serializeOrder } from '../serializers/order.serializer';
import { sendCreated } from './location';

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
        sendCreated(req, res, config.appUrl, { data: { id: order.id, number: order.number, status: order.status }, provider_approval_url: order.payment.approvalUrl });
      },
    ],
  });
  route(router, '/orders', {
    get: [auth, async (req, res) => answerJson(req, res, listEnvelope(req, config.appUrl, await orders.list(req.ctx, req.query), (view) => serializeOrder(view, files)))],
  });
  route(router, '/orders/:id', {
    // Polled all day (D23): a conditional request reads only the order's version.
    get: [
      auth,
      (req, res) =>
        answerVersioned(req, res, () => orders.version(req.ctx, req.params.id), () => orders.get(req.ctx, req.params.id), (polled) => ({ data: serializeOrder(polled, files) })),
    ],
  });
  route(router, '/orders/:id/cancel', {
    post: [auth, async (req, res) => void res.json({ data: serializeOrder(await orders.cancel(req.ctx, req.params.id), files) })],
  });
  return router;
}
