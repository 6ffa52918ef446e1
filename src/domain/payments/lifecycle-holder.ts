import type { EntityManager } from '@mikro-orm/core';
import type { Lifecycle, Stateful } from '../shared/lifecycle';
import type { Payment } from './payment.entity';
import type { PaymentHolder } from './payment.service';

/**
 * An order or a booking as the holder of its payment: it waits in `awaiting` (or on hold from it), moves to
 * `paid` through its lifecycle, is held when the money is reversed, and records and tells a late refund.
 */
export function lifecycleHolder<S extends string, E extends Stateful<S>>(
  lifecycle: Lifecycle<S, E>,
  row: E,
  spec: {
    awaiting: S;
    paid: S;
    onPaid?: (payment: Payment) => void;
    tellRefund: (em: EntityManager, payment: Payment) => Promise<void>;
  },
): PaymentHolder {
  return {
    awaitingPayment: lifecycle.isWaitingIn(row, spec.awaiting),
    async paid(em, payment) {
      spec.onPaid?.(payment);
      await lifecycle.advance(em, row, spec.paid, { actor: null, action: 'paid' });
    },
    async reversed(em, _payment, reason) {
      if (lifecycle.canMove(row, lifecycle.onHoldState)) await lifecycle.hold(em, row, { actor: null, action: 'hold', reason });
    },
    async refundingLateCapture(em, payment) {
      lifecycle.record(em, row, row.status, { actor: null, action: 'late_capture_refunded' }, { payment_id: payment.id, amount_cents: payment.capturedCents });
      await spec.tellRefund(em, payment);
    },
  };
}
