import { Field, ObjectType } from 'type-graphql';
import { hasHardCopies } from '../quotes/shipping-address';

/**
 * The actions recorded on an order (audited, and heard by the mail area) when staff hand its parcel to a carrier, and
 * when they correct its details (D22).
 */
export const SHIPPED = 'mark_shipped';
export const SHIPMENT_CORRECTED = 'correct_shipment';

/** Mailed hard copies on their way (D22). */
@ObjectType({ description: 'Hard copies handed to a carrier.' })
export class Shipment {
  @Field() carrier!: string;
  @Field() trackingNumber!: string;
  @Field() shippedAt!: Date;
}

/** The shipment of an order (an entity or its polled read), or null before staff mark it shipped. */
export function shipmentOf(order: {
  shipmentCarrier: string | null;
  shipmentTrackingNumber: string | null;
  shippedAt: Date | null;
}): Shipment | null {
  if (!order.shippedAt || !order.shipmentCarrier || !order.shipmentTrackingNumber) return null;
  return Object.assign(new Shipment(), {
    carrier: order.shipmentCarrier,
    trackingNumber: order.shipmentTrackingNumber,
    shippedAt: order.shippedAt,
  });
}

/** Hard copies were ordered and have nowhere to go yet: the client still has to set the address (D22). */
export const shippingAddressRequired = (order: { addons: { code: string }[]; shippingAddress: unknown }): boolean =>
  hasHardCopies(order) && !order.shippingAddress;
