import type { Mailer } from '../../providers/mail/mailer';
import { accountOf } from '../identity/account-of';
import { lateCaptureRefundEmail, paymentReceiptEmail } from '../mail/messages';
import { refundMadeEmail } from '../mail/staff-action-messages';
import type { Lifecycle, Stateful } from '../lifecycle/lifecycle';
import { refusalMessage } from '../lifecycle/state-machine';
import type { Payment } from './payment.entity';
import type { PaymentHolder } from './payment.service';

/** Why a capture on a checkout its owner no longer holds (a renewal replaced it, D29) goes back. */
const REPLACED = 'a newer checkout had replaced the one it was made on.';

/**
 * An order or a booking as the holder of its payment: it waits for it (or is on hold from waiting) while its table
 * lets a payment move it on, moves on through its lifecycle with a receipt e-mailed, is held when the money is
 * reversed, records and tells a late refund (D26, D29), and tells each refund made (D28), with staff's reason for one made without cancelling (D30). As the former holder of a
 * payment a renewal replaced (`holds` false), it waits for nothing and follows nothing that payment does, but a
 * capture that still lands on it is recorded and told, and so is its refund.
 */
export function lifecycleHolder<S extends string, E extends Stateful<S> & { account: { id: string } }>(
  lifecycle: Lifecycle<S, E>,
  row: E,
  spec: {
    /** How the account knows it: `Order LT-2611-AB12CD`. */
    label: string;
    /** What the receipt says was paid for, beside the label (an order's billing and document pages, D29). */
    detail?: string;
    /** The terms the receipt repeats (a booking's cancellation deadlines, D32). */
    terms?: string;
    mailer: Mailer;
    onPaid?: (payment: Payment) => void;
  },
  holds = true,
): PaymentHolder {
  const waiting = holds && lifecycle.awaitsPayment(row);
  // Why it can no longer be paid though it waits (D29: a booking whose start passed); a capture then goes back.
  const refusal = waiting ? lifecycle.paymentRefusal(row) : undefined;
  const closedReason = refusal === undefined ? null : refusalMessage(refusal);
  return {
    awaitingPayment: waiting && !closedReason,
    closedReason,
    async paid(em, payment) {
      spec.onPaid?.(payment);
      await lifecycle.paid(em, row);
      await spec.mailer.send(
        em,
        paymentReceiptEmail(await accountOf(em, row), spec.label, payment, spec.detail, spec.terms),
      );
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
      const late = holds ? closedReason : REPLACED;
      await spec.mailer.send(em, lateCaptureRefundEmail(await accountOf(em, row), spec.label, payment, late));
    },
    async refunded(em, payment, amountCents, reason) {
      await spec.mailer.send(
        em,
        refundMadeEmail(await accountOf(em, row), spec.label, { amountCents, currency: payment.currency }, reason),
      );
    },
  };
}
