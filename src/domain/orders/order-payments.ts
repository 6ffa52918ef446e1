import { ServiceType } from '../catalog/catalog.enums';
import { languagePairName } from '../catalog/language-names';
import { Addon } from '../catalog/rates.entity';
import { lifecycleHolder } from '../payments/lifecycle-holder';
import type { PaymentActivity } from '../payments/payment-activity';
import type { PaymentOwners } from '../payments/payment.service';
import { billedUnits } from '../quotes/billed-units';
import type { EventHub } from '../shared/event-hub';
import { Order } from './order.entity';
import { isRush, type OrderLifecycle } from './order.lifecycle';

/** Orders as what payments pay for (D9, D26): paid, an order is due after the turnaround (rush: 2 hours). */
export function orderPayments(deps: {
  lifecycle: OrderLifecycle;
  events: EventHub<PaymentActivity>;
  turnaroundHours: number;
}): PaymentOwners {
  return {
    async lockHolder(em, id, paymentId) {
      const order = await deps.lifecycle.lock(em, { id });
      if (!order) return null;
      return lifecycleHolder(
        deps.lifecycle,
        order,
        {
          label: `Order ${order.number}`,
          detail: billedUnits(order),
          events: deps.events,
          onPaid: (payment) => {
            const paidAt = payment.paidAt ?? new Date();
            order.dueAt = new Date(paidAt.getTime() + (isRush(order) ? 2 : deps.turnaroundHours) * 60 * 60 * 1000);
          },
        },
        order.payment.id === paymentId,
      );
    },

    /** The order's priced lines (the OpenAPI `Order` schema), add-ons named as the catalog names them. */
    async summarize(em, id, paymentId) {
      const order = await em.findOne(Order, { id, payment: paymentId });
      if (!order) return null;
      const names = new Map(
        (await em.find(Addon, { code: { $in: order.addons.map((line) => line.code) } })).map((addon) => [
          addon.code,
          addon.name,
        ]),
      );
      const units = billedUnits(order);
      return {
        kind: 'order',
        id: order.id,
        number: order.number,
        lines: [
          {
            label: `${order.serviceType === ServiceType.CERTIFIED ? 'Certified' : 'Standard'} translation, ${languagePairName(order.sourceLanguage, order.targetLanguage)}, ${units}`,
            amountCents: order.subtotalCents,
          },
          ...order.addons.map((line) => ({
            label: `${names.get(line.code) ?? line.code}${line.quantity > 1 ? ` x ${line.quantity}` : ''}`,
            amountCents: line.totalCents,
          })),
        ],
        totalCents: order.totalCents,
        currency: order.currency,
        closedReason: null,
      };
    },
  };
}
