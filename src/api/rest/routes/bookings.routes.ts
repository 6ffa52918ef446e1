import { Router } from 'express';
import type { BookingRead, PolledBooking } from '../../../domain/bookings/booking-read';
import { createBookingCommand, listBookingsCommand } from '../../../domain/bookings/booking.commands';
import { checkoutReturnCommand } from '../../../domain/payments/payment.commands';
import type { Services } from '../../../services';
import { restCommand } from '../../commands';
import { authenticateAccount } from '../authenticate';
import { answerVersioned, answerVersionedList } from '../conditional';
import { listEnvelope } from '../pagination';
import { permit } from '../permit';
import { route } from '../routing';
import { serializeBooking } from '../serializers/booking.serializer';
import { sendCreated } from './location';
import type { PolledRoute } from '../polling-lane';

/** The path of `getBooking`, polled all day (D23): the polling lane answers it in front of Express. */
export const BOOKING_PATH = '/interpretation-bookings/:id';

/** A booking's answer (`getBooking`, and every other answer of a booking). */
const bookingSerializer = (services: Services) => (booking: BookingRead) =>
  serializeBooking(booking, services.payments.provider.name, services.receipts);

/** `getBooking`'s service and body, the route's and the polling lane's (D23). */
export function polledBookings(services: Services): Omit<PolledRoute<PolledBooking>, 'pattern'> {
  const serialize = bookingSerializer(services);
  return { service: services.bookings, body: (polled) => ({ data: serialize(polled.booking) }) };
}

/** `createBooking`, `listBookings`, `getBooking` and `cancelBooking`; and `renewBookingCheckout` (D29). */
export function bookingsRoutes(services: Services): Router {
  const router = Router();
  const { bookings, config } = services;
  const auth = authenticateAccount(services);
  const polling = authenticateAccount(services, (id, reads) => bookings.polled(id, reads));
  const serialize = bookingSerializer(services);
  const polled = polledBookings(services);

  route(router, '/interpretation-bookings', {
    get: [
      auth,
      async (req, res) => {
        const page = await bookings.list(req.ctx, restCommand(listBookingsCommand, req.query));
        answerVersionedList(req, res, page.version, () => listEnvelope(req, config.appUrl, page, serialize));
      },
    ],
    post: [
      auth,
      permit('bookings.create'),
      async (req, res) =>
        sendCreated(req, res, config.appUrl, {
          data: serialize(await bookings.create(req.ctx, restCommand(createBookingCommand, req.body))),
        }),
    ],
  });
  route(router, BOOKING_PATH, {
    // Polled all day (D23): with an API key, the statement that looks the key up reads the booking's version for a
    // conditional request, its answer for one that is not: one statement a poll.
    get: [
      polling,
      (req, res) =>
        answerVersioned(
          req,
          res,
          (known) => bookings.version(req.ctx, req.params.id, known),
          (known) => bookings.get(req.ctx, req.params.id, known),
          polled.body,
        ),
    ],
  });
  route(router, '/interpretation-bookings/:id/checkout', {
    // A lost checkout issued again (D29): the old one is voided; refused once the start has passed.
    post: [
      auth,
      permit('bookings.renew_checkout'),
      async (req, res) => {
        const booking = await bookings.renewCheckout(
          req.ctx,
          req.params.id,
          restCommand(checkoutReturnCommand, req.body),
        );
        res.json({ data: serialize(booking), provider_approval_url: booking.payment!.approvalUrl });
      },
    ],
  });
  route(router, '/interpretation-bookings/:id/cancel', {
    post: [auth, async (req, res) => void res.json({ data: serialize(await bookings.cancel(req.ctx, req.params.id)) })],
  });
  return router;
}
