import type { Mailer } from '../../providers/mail/mailer';
import { accountOf } from '../accounts/account-of';
import { lateCaptureRefundEmail, paymentReceiptEmail } from '../mail/messages';
import type { Lifecycle, Stateful } from '../shared/lifecycle';
import type { Payment } from './payment.entity';
import type { PaymentHolder } from './payment.service';

/**
 * An order or a booking as the holder of its payment: it waits in `awaiting` (or on hold from it), moves to
 * `paid` through its lifecycle with a receipt e-mailed, is held when the money is reversed, and records and
 * tells a late refund (D26).
 */
export function lifecycleHolder<S extends string, E extends Stateful<S> & { account: { id: string } }>(
  lifecycle: Lifecycle<S, E>,
  row: E,
  spec: {
    awaiting: S;
    paid: S;
    /** How the account knows it: `Order LT-2611-AB12CD`. */
    label: string;
    mailer: Mailer;
    onPaid?: (payment: Payment) => void;
  },
): PaymentHolder {
  return {
    awaitingPayment: lifecycle.isWaitingIn(row, spec.awaiting),
    async paid(em, payment) {
      spec.onPaid?.(payment);
      await lifecycle.advance(em, row, spec.paid, { actor: null, action: 'paid' });
      await spec.mailer.send(em, paymentReceiptEmail(await accountOf(em, row), spec.label, payment));
    },
    async reversed(em, _payment, reason) {
      if (lifecycle.canMove(row, lifecycle.onHoldState)) await lifecycle.hold(em, row, { actor: null, action: 'hold', reason });
    },
    async refundingLateCapture(em, payment) {
      lifecycle.record(em, row, row.status, { actor: null, action: 'late_capture_refunded' }, { payment_id: payment.id, amount_cents: payment.capturedCents });
      await spec.mailer.send(em, lateCaptureRefundEmail(await accountOf(em, row), spec.label, payment));
    },
  };
}
