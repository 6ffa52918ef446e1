import { Router, urlencoded } from 'express';
import { ValidationError } from '../../../shared/errors';
import type { Services } from '../../../services';
import { escapeHtml, htmlDocument } from '../../http/html';
import { checkoutPage, finishCheckout } from '../checkout/checkout-pages';
import { checkoutView } from '../checkout/checkout-view';
import { bodyTypes } from '../media-type';
import { route } from '../routing';

/**
 * The sandbox's hosted checkout (D1, D9): a page with what is paid for and Pay and Cancel buttons, working
 * without JavaScript. Pay goes through the same confirmation as a real provider's, then back to the client's
 * redirect_url with the order's or booking's id.
 */
export function sandboxCheckoutRoutes(services: Services): Router {
  const router = Router();
  const { payments } = services;
  // The page's own buttons: an HTML form, never JSON.
  const form = [bodyTypes('application/x-www-form-urlencoded'), urlencoded({ extended: false, limit: '1kb' })];

  route(router, '/sandbox/checkout/:providerOrderId', {
    get: [
      async (req, res) => {
        const payment = await payments.findByProviderOrderId(req.ctx.em, String(req.params.providerOrderId));
        const base = `/api/v1/sandbox/checkout/${encodeURIComponent(payment.providerOrderId!)}`;
        res.type('html').send(checkoutPage(await checkoutView(services, req.ctx.em, payment), base));
      },
    ],
  });
  route(router, '/sandbox/checkout/:providerOrderId/pay', {
    post: [
      ...form,
      async (req, res) => {
        try {
          const { payment, outcome } = await payments.confirm(req.ctx.em, String(req.params.providerOrderId));
          return finishCheckout(res, await checkoutView(services, req.ctx.em, payment), outcome);
        } catch (error) {
          // A closed or declined checkout is told to the person at the page, not as a JSON error.
          if (!(error instanceof ValidationError)) throw error;
          const body = `<main><div class="card"><h1>Payment not possible</h1><p class="status closed" role="status">${escapeHtml(error.message)}</p></div></main>`;
          return void res.status(409).type('html').send(htmlDocument('Payment not possible', body));
        }
      },
    ],
  });
  route(router, '/sandbox/checkout/:providerOrderId/cancel', {
    post: [
      ...form,
      async (req, res) => {
        const payment = await payments.findByProviderOrderId(req.ctx.em, String(req.params.providerOrderId));
        finishCheckout(res, await checkoutView(services, req.ctx.em, payment), 'cancelled');
      },
    ],
  });
  return router;
}
