import { Router } from 'express';
import { listOrdersCommand } from '../../../domain/orders/order.commands';
import { requestRevisionCommand } from '../../../domain/orders/revision.commands';
import { checkoutReturnCommand } from '../../../domain/payments/payment.commands';
import type { Services } from '../../../services';
import { restCommand } from '../../commands';
import { authenticateAccount } from '../authenticate';
import { answerVersioned, answerVersionedList } from '../conditional';
import { listEnvelope } from '../pagination';
import { permit } from '../permit';
import { route } from '../routing';
import { orderSerializer } from '../serializers/order.serializer';
import { sendCreated } from './location';
import type { PolledRoute } from '../polling-lane';
import type { PolledOrder } from '../../../domain/orders/order-read';

/** The path of `getOrder`, polled all day (D23): the polling lane answers it in front of Express. */
export const ORDER_PATH = '/orders/:id';

/** `getOrder`'s service and body, the route's and the polling lane's (D23). */
export function polledOrders(services: Services): Omit<PolledRoute<PolledOrder>, 'pattern'> {
  const serialize = orderSerializer(services);
  return { service: services.orders, body: (polled) => ({ data: serialize(polled) }) };
}

/**
 * `convertQuote`, `listOrders`, `getOrder` and `cancelOrder`; `renewOrderCheckout`, an unpaid order's new checkout (D29);
 * `requestRevision`, a completed order's free revision (D30); and `deleteOrderDocuments` (D33).
 */
export function ordersRoutes(services: Services): Router {
  const router = Router();
  const { orders, revisions, config } = services;
  const auth = authenticateAccount(services);
  const polling = authenticateAccount(services, (id, reads) => orders.polled(id, reads));
  const serialize = orderSerializer(services);
  const polled = polledOrders(services);

  route(router, '/quotes/:id/convert', {
    post: [
      auth,
      permit('orders.convert'),
      async (req, res) => {
        const order = await orders.convert(req.ctx, req.params.id, restCommand(checkoutReturnCommand, req.body));
        sendCreated(req, res, config.appUrl, {
          data: { id: order.id, number: order.number, status: order.status },
          provider_approval_url: order.payment.approvalUrl,
        });
      },
    ],
  });
  route(router, '/orders', {
    get: [
      auth,
      async (req, res) => {
        const page = await orders.list(req.ctx, restCommand(listOrdersCommand, req.query));
        answerVersionedList(req, res, page.version, () => listEnvelope(req, config.appUrl, page, serialize));
      },
    ],
  });
  route(router, ORDER_PATH, {
    // Polled all day (D23): with an API key, the statement that looks the key up reads the order's version for a
    // conditional request, its answer for one that is not: one statement a poll.
    get: [
      polling,
      (req, res) =>
        answerVersioned(
          req,
          res,
          (known) => orders.version(req.ctx, req.params.id, known),
          (known) => orders.get(req.ctx, req.params.id, known),
          polled.body,
        ),
    ],
  });
  route(router, '/orders/:id/checkout', {
    // A lost checkout issued again (D29): the old one is voided.
    post: [
      auth,
      permit('orders.renew_checkout'),
      async (req, res) => {
        const polled = await orders.renewCheckout(req.ctx, req.params.id, restCommand(checkoutReturnCommand, req.body));
        res.json({ data: serialize(polled), provider_approval_url: polled.order.payment.approvalUrl });
      },
    ],
  });
  route(router, '/orders/:id/revisions', {
    // D30: a free revision of a completed order is a new order, answered as one, with its Location.
    post: [
      auth,
      permit('orders.request_revision'),
      async (req, res) => {
        const revision = await revisions.request(req.ctx, req.params.id, restCommand(requestRevisionCommand, req.body));
        sendCreated(req, res, config.appUrl, { data: serialize(revision) });
      },
    ],
  });
  route(router, '/orders/:id/documents', {
    // D33: a finished order's documents deleted now; repeating it is harmless.
    delete: [
      auth,
      async (req, res) => {
        await services.retention.deleteDocuments(req.ctx, req.params.id);
        res.status(204).end();
      },
    ],
  });
  route(router, '/orders/:id/cancel', {
    post: [auth, async (req, res) => void res.json({ data: serialize(await orders.cancel(req.ctx, req.params.id)) })],
  });
  return router;
}
