import type { Payment } from './payment.entity';

/** What an order's or a booking's answer shows of its payment (contract 2.7, D9): an entity is one, so is a polled read. */
export type PaymentRead = Pick<Payment, 'provider' | 'providerOrderId' | 'approvalUrl' | 'paidAt' | 'refundedAt'>;

/** The payment columns of a polled read (D23), selected as `provider`, `provider_order_id`, ... */
export const PAYMENT_COLUMNS = 'p.provider, p.provider_order_id, p.approval_url, p.paid_at, p.refunded_at';

type Row = Record<string, unknown>;

/** Maps those columns; `date` is the ORM platform's own parser, so dates come out as the entity path's do. */
export const paymentOf = (row: Row, date: (value: unknown) => Date | null): PaymentRead => ({
  provider: row.provider as string,
  providerOrderId: row.provider_order_id as string | null,
  approvalUrl: row.approval_url as string | null,
  paidAt: date(row.paid_at),
  refundedAt: date(row.refunded_at),
});

/**
 * A booking's payment before staff create its checkout: the provider it will use and nulls (contract 2.7). The one
 * rule both doors show, so a client sees the same object on REST and GraphQL.
 */
export const paymentOrPending = (payment: PaymentRead | null, provider: string): PaymentRead =>
  payment ?? { provider, providerOrderId: null, approvalUrl: null, paidAt: null, refundedAt: null };
