import { z } from 'zod';
import { httpUrl, integer, text } from '../shared/command-fields';
import { MAX_TOTAL_CENTS } from '../shared/money';

/**
 * Where the payer is sent back after a checkout (D9): `convertQuote`, and the renewals of D29
 * (`renewOrderCheckout`, `renewBookingCheckout`, `renewCheckout`).
 */
export const checkoutReturnCommand = z.object({ redirectUrl: httpUrl() });
export type CheckoutReturn = z.output<typeof checkoutReturnCommand>;

/** Staff's `refundOrder` and `refundInterpretationBooking` (D30): how much goes back, and why, for the client. */
export const staffRefundCommand = z.object({
  amountCents: integer({ required: true, min: 1, max: MAX_TOTAL_CENTS }),
  reason: text({ required: true, max: 500 }),
});
export type StaffRefundRequest = z.output<typeof staffRefundCommand>;
