import { Router, type Request, type RequestHandler } from 'express';
import { NotFoundError, ValidationError } from '../../../shared/errors';
import { WebhookInbox } from '../../../domain/payments/webhook-inbox';
import type { Services } from '../../../services';
import { finishCheckout } from '../checkout/checkout-pages';
import { checkoutView } from '../checkout/checkout-view';
import { route } from '../routing';

/**
 * The payer's return and cancel links and the provider's webhook, one door for whichever provider is configured
 * (D9, D26): `/payments/{provider}/...`. Return and webhook end in the same idempotent payment steps, so
 * whichever arrives first captures and the others change nothing.
 */
export function paymentsRoutes(services: Services): Router {
  const router = Router();
  const { payments } = services;
  const inbox = new WebhookInbox(payments);
  const checkoutOf = (req: Request) => payments.provider.checkoutFromReturn(req.query) ?? '';

  route(router, '/payments/:provider/return', {
    get: [
      forConfiguredProvider(services),
      async (req, res) => {
        const token = checkoutOf(req);
        const payment = await payments.findByProviderOrderId(req.ctx.em, token);
        try {
          const confirmed = await payments.confirm(req.ctx.em, token);
          finishCheckout(res, await checkoutView(services, req.ctx.em, confirmed.payment), confirmed.outcome);
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          finishCheckout(res, await checkoutView(services, req.ctx.em, payment), 'declined');
        }
      },
    ],
  });
  route(router, '/payments/:provider/cancel', {
    get: [
      forConfiguredProvider(services),
      async (req, res) =>
        finishCheckout(
          res,
          await checkoutView(services, req.ctx.em, await payments.findByProviderOrderId(req.ctx.em, checkoutOf(req))),
          'cancelled',
        ),
    ],
  });
  route(router, '/payments/:provider/webhook', {
    post: [
      forConfiguredProvider(services),
      async (req, res) => {
        try {
          res.json({ status: await inbox.receive(req.ctx.em, req.headers, req.rawBody ?? Buffer.alloc(0)) });
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          res.status(400).json({ message: 'Invalid webhook signature.' });
        }
      },
    ],
  });
  return router;
}

/** Only the provider this deployment uses has doors; any other name is unknown (404). */
const forConfiguredProvider =
  (services: Services): RequestHandler =>
  (req, _res, next) => {
    if (req.params.provider !== services.payments.provider.name) throw new NotFoundError();
    next();
  };
