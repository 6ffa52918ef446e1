import type { EntityManager } from '@mikro-orm/core';
import { Router, urlencoded, type Response } from 'express';
import { accountActor } from '../../domain/identity/guards';
import { ADDRESS_PAGE_PATH } from '../../domain/orders/address-links';
import { Order } from '../../domain/orders/order.entity';
import { setShippingAddressCommand } from '../../domain/orders/shipping.commands';
import { hasHardCopies, type ShippingAddress } from '../../domain/quotes/shipping-address';
import { isId } from '../../domain/shared/ids';
import { ForbiddenError, ValidationError } from '../../shared/errors';
import type { Services } from '../../services';
import { restCommand } from '../commands';
import { bodyTypes } from '../rest/media-type';
import { limitByAddress } from '../rest/rate-limit';
import { route } from '../rest/routing';
import { addressFormPage, addressMessagePage, ADDRESS_PAGE_CSP, type AddressFormValues } from './address-page';

const INVALID_LINK = 'This link is not valid. Use the link in our e-mail, or reply to it and we will help.';

/**
 * D22, D30: the page an e-mail sends a person to, to say where an order's hard copies go. The signed link is the
 * permission; the address is saved by the same service method as `PUT /orders/{id}/shipping_address`, as the
 * order's account, with the same rules and the same audit. Server-rendered, without scripts or outside assets.
 */
export function addressPageRoutes(services: Services): Router {
  const router = Router();
  const company = services.config.company.name;
  const form = [bodyTypes('application/x-www-form-urlencoded'), urlencoded({ extended: false, limit: '4kb' })];

  /** The order the signed link names, or null when the link is not one of ours. */
  const linkedOrder = async (em: EntityManager, id: string, signature: unknown) =>
    isId(id) && services.addressLinks.verify(id, signature)
      ? em.findOne(Order, { id }, { populate: ['account'] })
      : null;

  const page = (res: Response, status: number, html: string) =>
    void res
      .status(status)
      .type('html')
      .set({ 'Content-Security-Policy': ADDRESS_PAGE_CSP, 'Cache-Control': 'no-store' })
      .send(html);

  route(router, `${ADDRESS_PAGE_PATH}/:orderId`, {
    get: [
      limitByAddress(services),
      async (req, res) => {
        const order = await linkedOrder(req.ctx.em, String(req.params.orderId), req.query.signature);
        if (!order) return page(res, 403, addressMessagePage(company, 'Link not valid', INVALID_LINK, 'closed'));
        const refusal = addressRefusal(services, order);
        if (refusal) return page(res, 422, addressMessagePage(company, `Order ${order.number}`, refusal, 'closed'));
        const current = order.shippingAddress;
        const values: AddressFormValues = current
          ? { ...current, line2: current.line2 ?? '', region: current.region ?? '', postal_code: current.postalCode }
          : {};
        page(res, 200, addressFormPage(company, order.number, req.originalUrl, values));
      },
    ],
    post: [
      limitByAddress(services),
      ...form,
      async (req, res) => {
        const order = await linkedOrder(req.ctx.em, String(req.params.orderId), req.query.signature);
        if (!order) return page(res, 403, addressMessagePage(company, 'Link not valid', INVALID_LINK, 'closed'));
        const values = formValues(req.body);
        try {
          const saved = await services.shipping.setAddress(
            { ...req.ctx, actor: accountActor(order.account) },
            order.id,
            restCommand(setShippingAddressCommand, values),
          );
          const where = formatAddress(saved.order.shippingAddress!);
          page(
            res,
            200,
            addressMessagePage(
              company,
              'Address saved',
              `We will mail the hard copies of order ${order.number} to: ${where}`,
              'ok',
            ),
          );
        } catch (error) {
          if (error instanceof ForbiddenError)
            return page(res, 403, addressMessagePage(company, `Order ${order.number}`, error.message, 'closed'));
          if (!(error instanceof ValidationError)) throw error;
          page(res, 422, addressFormPage(company, order.number, req.originalUrl, values, error.errors));
        }
      },
    ],
  });
  return router;
}

/** Why the address cannot be given now (no hard copies, cancelled, shipped), as the service would refuse it. */
function addressRefusal(services: Services, order: Order): string | null {
  try {
    services.orders.lifecycle.assertAction(order, 'set_shipping_address');
    return hasHardCopies(order) ? null : 'This order has no hard copies, so there is nothing to mail.';
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return Object.values(error.errors).flat()[0] ?? error.message;
  }
}

/** An address on one line, as the confirmation reads it back. */
const formatAddress = (address: ShippingAddress): string =>
  [address.name, address.line1, address.line2, address.city, address.region, address.postalCode, address.country]
    .filter(Boolean)
    .join(', ');

/** The form's fields as text; a field left empty is left out, as a JSON body would leave it out. */
function formValues(body: unknown): AddressFormValues {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(fields).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '',
    ),
  );
}
