import type { PaymentRead } from './payment-read';
import type { DateOf, SqlRow } from '../../db/orm-driver';

/** The payment columns of an order's or a booking's polled read (D23), the payment aliased `p`. */
export const PAYMENT_COLUMNS =
  'p.id AS payment_row_id, p.provider, p.provider_order_id, p.approval_url, p.paid_at, p.refunded_at, p.refunded_cents';

/** Maps those columns as the entity path shows them (the OpenAPI `Payment` schema, D9). */
export const paymentOf = (row: SqlRow, date: DateOf): PaymentRead => ({
  id: row.payment_row_id as string,
  provider: row.provider as string,
  providerOrderId: row.provider_order_id as string | null,
  approvalUrl: row.approval_url as string | null,
  paidAt: date(row.paid_at),
  refundedAt: date(row.refunded_at),
  refundedCents: row.refunded_cents as number,
});
