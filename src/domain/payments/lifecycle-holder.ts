import type { Mailer } from '../../providers/mail/mailer';
import { accountOf } from '../accounts/account-of';
import { lateCaptureRefundEmail, paymentReceiptEmail } from '../mail/messages';
import { refundMadeEmail } from '../mail/staff-action-messages';
import type { Lifecycle, Stateful } from '../shared/lifecycle';
import type { Payment } from './payment.entity';
import type { PaymentHolder } from './payment.service';

/**
 * An order or a booking as the holder of its payment: it waits in `awaiting` (or on hold from it) while it can be
 * paid, moves to `paid` through its lifecycle with a receipt e-mailed, is held when the money is reversed, records
 * and tells a late refund (D26, D29), and tells each refund made (D28).
 */
export function lifecycleHolder<S extends string, E extends Stateful<S> & { account: { id: string } }>(
  lifecycle: Lifecycle<S, E>,
  row: E,
  spec: {
    awaiting: S;
    paid: S;
    /** How the account knows it: `Order LT-2611-AB12CD`. */
    label: string;
    /** What the receipt says was paid for, beside the label (an order's billing and document pages, D29). */
    detail?: string;
    mailer: Mailer;
    onPaid?: (payment: Payment) => void;
    /** Why it can no longer be paid though it waits (D29: a booking whose start passed); a capture then goes back. */
    closedReason?: string | null;
  },
): PaymentHolder {
  const waiting = lifecycle.isWaitingIn(row, spec.awaiting);
  const closedReason = waiting ? (spec.closedReason ?? null) : null;
  return {
    awaitingPayment: waiting && !closedReason,
    closedReason,
    async paid(em, payment) {
      spec.onPaid?.(payment);
      await lifecycle.advance(em, row, spec.paid, { actor: null, action: 'paid' });
      await spec.mailer.send(em, paymentReceiptEmail(await accountOf(em, row), spec.label, payment, spec.detail));
    },
    async reversed(em, _payment, reason) {
      if (lifecycle.canMove(row, lifecycle.onHoldState)) await lifecycle.hold(em, row, { actor: null, action: 'hold', reason });
    },
    async refundingLateCapture(em, payment) {
      lifecycle.record(em, row, row.status, { actor: null, action: 'late_capture_refunded' }, { payment_id: payment.id, amount_cents: payment.capturedCents });
      await spec.mailer.send(em, lateCaptureRefundEmail(await accountOf(em, row), spec.label, payment, closedReason));
    },
    async refunded(em, payment, amountCents) {
      await spec.mailer.send(em, refundMadeEmail(await accountOf(em, row), spec.label, { amountCents, currency: payment.currency }));
    },
  };
}
