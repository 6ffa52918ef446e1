import { z } from 'zod';
import { httpUrl } from '../shared/command-fields';

/**
 * Where the payer is sent back after a checkout (D9): `convertQuote`, and the renewals of D29
 * (`renewOrderCheckout`, `renewBookingCheckout`, `renewCheckout`).
 */
export const checkoutReturnCommand = z.object({ redirectUrl: httpUrl() });
export type CheckoutReturn = z.output<typeof checkoutReturnCommand>;
