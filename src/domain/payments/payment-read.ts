import type { Payment } from './payment.entity';

/** What an order's or a booking's answer shows of its payment (the OpenAPI `Payment` schema, D9): an entity is one, so is a polled read. */
export type PaymentRead = Pick<
  Payment,
  'provider' | 'providerOrderId' | 'approvalUrl' | 'paidAt' | 'refundedAt' | 'refundedCents'
> & {
  /** Null before staff make a booking's checkout; names the receipt's stable link once paid (D31). */
  id: string | null;
};

/**
 * A booking's payment before staff create its checkout: the provider it will use and nulls (the OpenAPI `Payment` schema). The one
 * rule both doors show, so a client sees the same object on REST and GraphQL.
 */
export const paymentOrPending = (payment: PaymentRead | null, provider: string): PaymentRead =>
  payment ?? {
    id: null,
    provider,
    providerOrderId: null,
    approvalUrl: null,
    paidAt: null,
    refundedAt: null,
    refundedCents: 0,
  };
