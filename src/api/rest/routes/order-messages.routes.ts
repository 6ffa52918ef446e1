import { Router } from 'express';
import { listOrderMessagesCommand, postOrderMessageCommand } from '../../../domain/orders/order-message.commands';
import type { Services } from '../../../services';
import { restCommand } from '../../commands';
import { authenticateAccount } from '../authenticate';
import { answerJson } from '../conditional';
import { listEnvelope } from '../pagination';
import { permit } from '../permit';
import { route } from '../routing';
import { serializeOrderMessage } from '../serializers/order-message.serializer';
import { sendCreated } from './location';

/** `listOrderMessages` and `postOrderMessage`: an order's conversation with the desk (D30). */
export function orderMessagesRoutes(services: Services): Router {
  const router = Router();
  const { orderMessages, config } = services;
  const auth = authenticateAccount(services);

  route(router, '/orders/:id/messages', {
    get: [
      auth,
      async (req, res) => {
        const page = await orderMessages.list(req.ctx, req.params.id, restCommand(listOrderMessagesCommand, req.query));
        answerJson(req, res, listEnvelope(req, config.appUrl, page, serializeOrderMessage));
      },
    ],
    post: [
      auth,
      permit('orders.message'),
      async (req, res) => {
        const message = await orderMessages.post(
          req.ctx,
          req.params.id,
          restCommand(postOrderMessageCommand, req.body),
        );
        sendCreated(req, res, config.appUrl, { data: serializeOrderMessage(message) });
      },
    ],
  });
  return router;
}
