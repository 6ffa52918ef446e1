import { Router } from 'express';
import { setShippingAddressCommand } from '../../../domain/orders/shipping.commands';
import type { Services } from '../../../services';
import { restCommand } from '../../commands';
import { authenticateAccount } from '../authenticate';
import { permit } from '../permit';
import { route } from '../routing';
import { orderSerializer } from '../serializers/order.serializer';

/** D22: where an order's hard copies go, given after the quote (v1 quotes never carry it). */
export function shippingRoutes(services: Services): Router {
  const router = Router();
  const { shipping } = services;
  const serialize = orderSerializer(services);
  route(router, '/orders/:id/shipping_address', {
    put: [
      authenticateAccount(services),
      permit('orders.set_shipping_address'),
      async (req, res) =>
        void res.json({
          data: serialize(
            await shipping.setAddress(req.ctx, req.params.id, restCommand(setShippingAddressCommand, req.body)),
          ),
        }),
    ],
  });
  return router;
}
