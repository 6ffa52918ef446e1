import type { Lifecycle, Stateful } from '../lifecycle/lifecycle';
import { refusalMessage } from '../lifecycle/state-machine';
import type { EventHub } from '../shared/event-hub';
import type { PaidFor, PaymentActivity } from './payment-activity';
import type { Payment } from './payment.entity';
import type { PaymentHolder } from './payment.service';

/** Why a capture on a checkout its owner no longer holds (a renewal replaced it, D29) goes back. */
const REPLACED = 'a newer checkout had replaced the one it was made on.';

/**
 * An order or a booking as the holder of its payment: it waits for it (or is on hold from waiting) while its table
 * lets a payment move it on, moves on through its lifecycle, is held when the money is reversed and records a late
 * refund (D26, D29); the payment received, a late capture going back and each refund made (D28, D30) it raises for
 * the account to be told. As the former holder of a payment a renewal replaced (`holds` false), it waits for nothing
 * and follows nothing that payment does, but a capture that still lands on it is recorded and raised, and so is its
 * refund.
 */
export function lifecycleHolder<S extends string, E extends Stateful<S> & { account: { id: string } }>(
  lifecycle: Lifecycle<S, E>,
  row: E,
  spec: Omit<PaidFor, 'row'> & {
    events: EventHub<PaymentActivity>;
    onPaid?: (payment: Payment) => void;
  },
  holds = true,
): PaymentHolder {
  const { events, onPaid, ...described } = spec;
  const paidFor: PaidFor = { row, ...described };
  const waiting = holds && lifecycle.awaitsPayment(row);
  // Why it can no longer be paid though it waits (D29: a booking whose start passed); a capture then goes back.
  const refusal = waiting ? lifecycle.paymentRefusal(row) : undefined;
  const closedReason = refusal === undefined ? null : refusalMessage(refusal);
  return {
    awaitingPayment: waiting && !closedReason,
    closedReason,
    async paid(em, payment) {
      onPaid?.(payment);
      await lifecycle.paid(em, row);
      await events.raise(em, { kind: 'received', paidFor, payment });
    },
    async reversed(em, _payment, reason) {
      if (holds && lifecycle.canMove(row, lifecycle.onHoldState, { actor: null }))
        await lifecycle.hold(em, row, { actor: null, action: 'hold', reason });
    },
    async refundingLateCapture(em, payment) {
      await lifecycle.record(
        em,
        row,
        row.status,
        { actor: null, action: 'late_capture_refunded' },
        { payment_id: payment.id, amount_cents: payment.capturedCents },
      );
      await events.raise(em, {
        kind: 'late_capture_refunding',
        paidFor,
        payment,
        late: holds ? closedReason : REPLACED,
      });
    },
    async refunded(em, payment, amountCents, reason) {
      await events.raise(em, { kind: 'refunded', paidFor, payment, amountCents, reason });
    },
  };
}
