import { z } from 'zod';
import { text } from '../shared/command-fields';
import { addressFields } from '../quotes/shipping-address';

/** `PUT /orders/{id}/shipping_address` and `setShippingAddress`: the whole address, every time (D22). */
export const setShippingAddressCommand = z.object(addressFields);
export type SetShippingAddress = z.output<typeof setShippingAddressCommand>;

/** Staff's `markShipped`: the carrier and its tracking number (D22). */
export const markShippedCommand = z.object({
  carrier: text({ required: true, max: 100 }),
  trackingNumber: text({ required: true, max: 100 }),
});
export type MarkShipped = z.output<typeof markShippedCommand>;
