import type { EntityManager } from '@mikro-orm/core';
import type { Payment } from '../../../domain/payments/payment.entity';
import type { Services } from '../../../services';
import type { CheckoutView } from './checkout-pages';

/** A payment with what it pays for and the operator's name, for the checkout pages. */
export async function checkoutView(services: Services, em: EntityManager, payment: Payment): Promise<CheckoutView> {
  return {
    payment,
    summary: await services.payments.summarize(em, payment),
    operator: services.config.company.name,
    onAccount: services.payments.isOnAccount(payment),
  };
}
