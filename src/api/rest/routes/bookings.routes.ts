import { Router } from 'express';
import type { Booking } from '../../../domain/bookings/booking.entity';
import type { Services } from '../../../services';
import { authenticateAccount } from '../authenticate';
import { listEnvelope } from '../pagination';
import { route } from '../routing';
import { serializeBooking } from '../serializers/booking.serializer';

/** Contract 4.13-4.16. */
export function bookingsRoutes(services: Services): Router {
  const router = Router();
  const { bookings, config } = services;
  const auth = authenticateAccount(services);
  const serialize = (booking: Booking) => serializeBooking(booking, services.payments.provider.name);

  route(router, '/interpretation-bookings', {
    get: [auth, async (req, res) => void res.json(listEnvelope(req, config.appUrl, await bookings.list(req.ctx, req.query), serialize))],
    post: [auth, async (req, res) => void res.status(201).json({ data: serialize(await bookings.create(req.ctx, req.body ?? {})) })],
  });
  route(router, '/interpretation-bookings/:id', {
    get: [auth, async (req, res) => void res.json({ data: serialize(await bookings.get(req.ctx, req.params.id)) })],
  });
  route(router, '/interpretation-bookings/:id/cancel', {
    post: [auth, async (req, res) => void res.json({ data: serialize(await bookings.cancel(req.ctx, req.params.id)) })],
  });
  return router;
}
