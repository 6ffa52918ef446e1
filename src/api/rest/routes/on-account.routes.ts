import { Router, urlencoded, type Request, type RequestHandler, type Response } from 'express';
import { paymentPlacementRefusal } from '../../../domain/billing/account-placement';
import { PaymentStatus, type Payment } from '../../../domain/payments/payment.entity';
import { ForbiddenError, NotFoundError, ValidationError } from '../../../shared/errors';
import type { Services } from '../../../services';
import { finishCheckout } from '../checkout/checkout-pages';
import { checkoutView } from '../checkout/checkout-view';
import { ON_ACCOUNT_PAGE_CSP, onAccountPage } from '../checkout/on-account-page';
import { bodyTypes } from '../media-type';
import { limitByAddress } from '../rate-limit';
import { route } from '../routing';

/**
 * D31: the "Place order on account" page a terms account's `provider_approval_url` opens, for an order or a booking,
 * and its two buttons. The unguessable token in the URL is the permission, as a checkout's is; the buttons are HTML
 * forms that only a page of this service may post (a request another site's page sends is refused), and placing goes
 * through the same confirmation as a paid checkout, then back to the client's `redirect_url`; paying by card instead
 * renews the payment at the card provider, for either.
 */
export function onAccountRoutes(services: Services): Router {
  const router = Router();
  const { payments, orders, bookings } = services;
  const form = [
    bodyTypes('application/x-www-form-urlencoded'),
    urlencoded({ extended: false, limit: '1kb' }),
    sameOrigin(services.config.appUrl),
  ];
  const paymentOf = async (req: Request): Promise<Payment> => {
    const payment = await payments.findByProviderOrderId(req.ctx.em, String(req.params.token));
    if (!payments.isOnAccount(payment)) throw new NotFoundError();
    return payment;
  };
  const show = async (req: Request, res: Response, payment: Payment, status = 200) => {
    const refusal =
      payment.status === PaymentStatus.CREATED ? await paymentPlacementRefusal(req.ctx.em, payment) : null;
    const base = `/api/v1/on-account/${encodeURIComponent(payment.providerOrderId!)}`;
    res
      .status(status)
      .type('html')
      .set({ 'Content-Security-Policy': ON_ACCOUNT_PAGE_CSP, 'Cache-Control': 'no-store' })
      .send(onAccountPage(await checkoutView(services, req.ctx.em, payment), base, refusal));
  };

  route(router, '/on-account/:token', {
    get: [limitByAddress(services), async (req, res) => show(req, res, await paymentOf(req))],
  });
  /** A button's post: `act` on the payment; a refusal (the limit, an overdue invoice, closed meanwhile) shows the page again, saying why. */
  const action = (act: (req: Request, res: Response, payment: Payment) => Promise<void>) => ({
    post: [
      limitByAddress(services),
      ...form,
      async (req: Request, res: Response) => {
        const payment = await paymentOf(req);
        try {
          await act(req, res, payment);
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          await show(req, res, await payments.findByProviderOrderId(req.ctx.em, payment.providerOrderId!), 422);
        }
      },
    ],
  });
  route(
    router,
    '/on-account/:token/place',
    action(async (req, res, payment) => {
      const confirmed = await payments.confirm(req.ctx.em, payment.providerOrderId!);
      finishCheckout(res, await checkoutView(services, req.ctx.em, confirmed.payment), confirmed.outcome);
    }),
  );
  route(
    router,
    '/on-account/:token/card',
    action(async (req, res, payment) => {
      const holder = payment.owner.type === 'order' ? orders : bookings;
      const card = await holder.payByCard(req.ctx.em, payment.providerOrderId!);
      res.redirect(303, card.approvalUrl!);
    }),
  );
  return router;
}

/**
 * The buttons' forms come from this service's own page: a browser names the page's origin (`Origin`, or
 * `Sec-Fetch-Site`), and one of another site is refused, so no other page can place work on a person's behalf.
 */
const sameOrigin =
  (appUrl: string): RequestHandler =>
  (req, _res, next) => {
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    if ((origin !== undefined && origin !== new URL(appUrl).origin) || site === 'cross-site' || site === 'same-site')
      throw new ForbiddenError('This form may only be sent from its own page.');
    next();
  };
