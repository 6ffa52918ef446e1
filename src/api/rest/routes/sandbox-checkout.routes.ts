import { Router, urlencoded } from 'express';
import type { Payment } from '../../../domain/payments/payment.entity';
import { PaymentStatus } from '../../../domain/payments/payment.entity';
import { ValidationError } from '../../../domain/shared/errors';
import type { Services } from '../../../services';
import { escapeHtml, finishCheckout, htmlPage } from '../checkout-return';
import { route } from '../routing';

/**
 * The sandbox's hosted checkout (D1, D9): a page with Pay and Cancel buttons that works without JavaScript.
 * Pay goes through the same confirmation as a real provider's, then back to the client's redirect_url.
 */
export function sandboxCheckoutRoutes(services: Services): Router {
  const router = Router();
  const { payments } = services;
  const form = urlencoded({ extended: false, limit: '1kb' });

  route(router, '/sandbox/checkout/:providerOrderId', {
    get: [
      async (req, res) => {
        const payment = await payments.findByProviderOrderId(req.ctx.em, String(req.params.providerOrderId));
        res.type('html').send(checkoutPage(payment));
      },
    ],
  });
  route(router, '/sandbox/checkout/:providerOrderId/pay', {
    post: [
      form,
      async (req, res) => {
        try {
          const { payment, outcome } = await payments.confirm(req.ctx.em, String(req.params.providerOrderId));
          return finishCheckout(res, payment, outcome);
        } catch (error) {
          // A closed or declined checkout is told to the person at the page, not as a JSON error.
          if (!(error instanceof ValidationError)) throw error;
          return void res.status(409).type('html').send(htmlPage('Payment not possible', `<p>${escapeHtml(error.message)}</p>`));
        }
      },
    ],
  });
  route(router, '/sandbox/checkout/:providerOrderId/cancel', {
    post: [
      form,
      async (req, res) => finishCheckout(res, await payments.findByProviderOrderId(req.ctx.em, String(req.params.providerOrderId)), 'cancelled'),
    ],
  });
  return router;
}

function checkoutPage(payment: Payment): string {
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: payment.currency }).format(payment.amountCents / 100);
  const payable = payment.status === PaymentStatus.CREATED;
  const base = `/api/v1/sandbox/checkout/${encodeURIComponent(payment.providerOrderId!)}`;
  const body = payable
    ? `<form method="post" action="${base}/pay"><button type="submit">Pay ${escapeHtml(amount)}</button></form>
       <form method="post" action="${base}/cancel"><button type="submit">Cancel</button></form>`
    : `<p>This checkout is ${payment.status === PaymentStatus.CAPTURED ? 'already paid' : 'closed'}.</p>`;
  return htmlPage('Sandbox checkout', `<p>${escapeHtml(payment.description)}</p><p class="amount">${escapeHtml(amount)}</p>${body}<p><small>Sandbox: no money moves.</small></p>`);
}

