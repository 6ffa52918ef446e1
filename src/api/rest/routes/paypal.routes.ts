import { Router } from 'express';
import { PayPalWebhooks } from '../../../domain/payments/paypal-webhooks';
import { ValidationError } from '../../../domain/shared/errors';
import type { PayPalPaymentProvider } from '../../../providers/payment/paypal-payment-provider';
import type { Services } from '../../../services';
import { finishCheckout } from '../checkout-return';
import { route } from '../routing';

/**
 * PayPal's return and cancel pages and its webhook (D9). The return path and the webhook both end in the one
 * idempotent confirmation, so whichever arrives first confirms and the other changes nothing.
 */
export function paypalRoutes(services: Services, provider: PayPalPaymentProvider): Router {
  const router = Router();
  const { payments } = services;
  const webhooks = new PayPalWebhooks(provider, payments);

  route(router, '/payments/paypal/return', {
    get: [
      async (req, res) => {
        const token = String(req.query.token ?? '');
        const payment = await payments.findByProviderOrderId(req.ctx.em, token);
        try {
          finishCheckout(res, await payments.confirm(req.ctx.em, token), 'paid');
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          finishCheckout(res, payment, 'declined');
        }
      },
    ],
  });
  route(router, '/payments/paypal/cancel', {
    get: [async (req, res) => finishCheckout(res, await payments.findByProviderOrderId(req.ctx.em, String(req.query.token ?? '')), 'cancelled')],
  });
  route(router, '/payments/paypal/webhook', {
    post: [
      async (req, res) => {
        try {
          const outcome = await webhooks.handle(
            req.ctx.em,
            {
              authAlgo: req.get('paypal-auth-algo'),
              certUrl: req.get('paypal-cert-url'),
              transmissionId: req.get('paypal-transmission-id'),
              transmissionSig: req.get('paypal-transmission-sig'),
              transmissionTime: req.get('paypal-transmission-time'),
            },
            req.body,
          );
          res.json({ status: outcome });
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          res.status(400).json({ message: 'Invalid webhook signature.' });
        }
      },
    ],
  });
  return router;
}
