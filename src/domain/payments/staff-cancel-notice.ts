import type { EntityManager } from '@mikro-orm/core';
import type { Mailer } from '../../providers/mail/mailer';
import { accountOf } from '../identity/account-of';
import { staffCancelledEmail } from '../mail/staff-action-messages';
import type { MoveCause } from '../lifecycle/lifecycle';
import { Payment, PaymentStatus } from './payment.entity';

/**
 * D28: when staff cancel an order or a booking, the account is told why and whether money goes back, and how much:
 * what the cancel just marked for refund (captured less any refunded before, and less refunds staff asked that are not
 * answered yet: each of those is told when it is made, D30), or, for a cancel that keeps a fee, what its settlement gives
 * back, with the sentence naming the fee (D32). Runs in the cancelling transaction,
 * after the payment was settled in it (D26), so the e-mail exists exactly when the cancel does.
 */
export async function tellStaffCancel(
  em: EntityManager,
  mailer: Mailer,
  row: { account: { id: string }; payment: { id: string } | null },
  what: string,
  cause: MoveCause,
  /** When a booking was to start, in its offset with UTC (D29). */
  when?: string,
): Promise<void> {
  if (cause.actor?.kind !== 'staff') return;
  const payment = row.payment && (await em.findOne(Payment, { id: row.payment.id }));
  const { settlement } = cause;
  const refund = settlement
    ? settlement.refundCents > 0
      ? { amountCents: settlement.refundCents, currency: settlement.currency }
      : null
    : payment?.status === PaymentStatus.REFUNDING
      ? {
          amountCents: payment.capturedCents - payment.refundedCents - payment.refundPendingCents,
          currency: payment.currency,
        }
      : null;
  await mailer.send(
    em,
    staffCancelledEmail(await accountOf(em, row), what, cause.reason, refund, settlement?.note, when),
  );
}
