import type { Payment } from './payment.entity';

/** What a payment pays for, as its account knows it: an order, a booking, or a booking's overtime (D32). */
export interface PaidFor {
  /** The order or booking, whose account is told. */
  row: { account: { id: string } };
  /** How the account knows it: `Order LT-2611-AB12CD`. */
  label: string;
  /** What was paid for, beside the label (an order's billing and document pages, D29; overtime hours, D32). */
  detail?: string;
  /** The terms the receipt repeats (a booking's cancellation deadlines, D32). */
  terms?: string;
}

/**
 * What happened to the money of an order or a booking, raised by its holder in the transaction that applied it
 * (docs/architecture.md "Domain events"): the payment taken (`received`), a capture that landed too late going back in
 * full (`late_capture_refunding`, `late` saying why, D26, D29), or a refund made at the provider (`refunded`, with
 * staff's reason for one made without cancelling, D28, D30).
 */
export type PaymentActivity =
  | { kind: 'received'; paidFor: PaidFor; payment: Payment }
  | { kind: 'late_capture_refunding'; paidFor: PaidFor; payment: Payment; late: string | null }
  | { kind: 'refunded'; paidFor: PaidFor; payment: Payment; amountCents: number; reason?: string };
