import type { EntityManager } from '@mikro-orm/core';
import type { MoveCause } from '../lifecycle/lifecycle';
import { Payment, PaymentStatus } from './payment.entity';

/** Money on its way back: how much, in the payment's currency. */
export interface RefundAmount {
  amountCents: number;
  currency: string;
}

/**
 * D28: what a cancel gives back of the row's payment: what the cancel just marked for refund (captured less any
 * refunded before, and less refunds staff asked that are not answered yet: each of those is told when it is made, D30),
 * or, for a cancel that keeps a fee, what its settlement gives back (D32); null when nothing goes back. Read in the
 * cancelling transaction, after the payment was settled in it (D26).
 */
export async function cancelRefund(
  em: EntityManager,
  row: { payment: { id: string } | null },
  cause: MoveCause,
): Promise<RefundAmount | null> {
  const payment = row.payment && (await em.findOne(Payment, { id: row.payment.id }));
  const { settlement } = cause;
  if (settlement)
    return settlement.refundCents > 0 ? { amountCents: settlement.refundCents, currency: settlement.currency } : null;
  return payment?.status === PaymentStatus.REFUNDING
    ? {
        amountCents: payment.capturedCents - payment.refundedCents - payment.refundPendingCents,
        currency: payment.currency,
      }
    : null;
}
