import type { Mailer, OutgoingEmail } from '../../providers/mail/mailer';
import type { Account } from '../identity/account.entity';
import { accountOf } from '../identity/account-of';
import type { PaymentActivity } from '../payments/payment-activity';
import type { Subscriber } from '../shared/event-hub';
import { lateCaptureRefundEmail, paymentReceiptEmail } from './messages';
import { refundMadeEmail } from './staff-action-messages';

/**
 * The account hears of the money of its orders and bookings: a receipt for every payment taken, a capture that came
 * too late going back (D26, D29), and each refund made (D28, D30).
 */
export function tellAccountOfPayment(mailer: Mailer): Subscriber<PaymentActivity> {
  return async (em, event) => mailer.send(em, paymentEmail(await accountOf(em, event.paidFor.row), event));
}

function paymentEmail(account: Account, event: PaymentActivity): OutgoingEmail {
  const { label, detail, terms } = event.paidFor;
  switch (event.kind) {
    case 'received':
      return paymentReceiptEmail(account, label, event.payment, detail, terms);
    case 'late_capture_refunding':
      return lateCaptureRefundEmail(account, label, event.payment, event.late);
    case 'refunded': {
      const refund = { amountCents: event.amountCents, currency: event.payment.currency };
      return refundMadeEmail(account, label, refund, event.reason);
    }
  }
}
