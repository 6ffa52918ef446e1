import { z } from 'zod';
import { Timestamp, Url } from './base.response';
import { component, documented } from './response-registry';

/** The `payment` object of orders and bookings (D9). */
export const Payment = component(
  'Payment',
  z.strictObject({
    provider: documented(
      z.string(),
      'The payment provider of this deployment: `paypal` in production, `sandbox` in the sandbox; `none` on a free revision (nothing to pay: no checkout, `paid_at` its creation time); `account` for work an account on terms placed on account (invoiced monthly; `paid_at` when it was placed, refunds are credits on the next invoice).',
      ['paypal', 'sandbox', 'none', 'account'],
    ),
    provider_order_id: documented(
      z.string().nullable(),
      "The provider's checkout id (a PayPal order id); null on a booking until staff confirm an interpreter.",
    ),
    approval_url: documented(
      Url.nullable(),
      'Where the payer approves the payment; null on a booking until staff confirm an interpreter.',
    ),
    paid_at: documented(Timestamp.nullable(), 'When the payment was captured (UTC); null until then.'),
    refunded_at: documented(
      Timestamp.nullable(),
      'When the provider confirmed that the last of the captured money went back to the payer (a cancel, a reversal, or refunds by staff of all of it) (UTC); null otherwise, including after a refund in part.',
    ),
    refunded_cents: documented(
      z.number().int().min(0),
      'Of the money captured, what went back to the payer so far, in cents of the order or booking currency: refunds in part by staff (the order or booking keeps its status), the refund of a cancel, refunds at the provider. 0 before payment.',
      [0, 500],
    ),
    receipt_url: documented(
      Url.nullable(),
      'Once paid by card: the receipt, a link that never changes (`GET /payments/{id}/receipt`, with your key) and answers with a fresh 5-minute link to its PDF. Null before payment, and for work placed on account (`account`: its invoice is the document) or with nothing to pay (`none`).',
    ),
  }),
);

export type PaymentJson = z.output<typeof Payment>;
