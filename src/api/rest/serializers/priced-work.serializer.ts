import type { PricedWork } from '../../../domain/quotes/priced-work';
import type { PricedWorkJson } from '../responses/priced-work.response';
import { serializePlacedBy } from './placed-by.serializer';

/** The priced fields quotes and orders share, as `getQuote` and `getOrder` answer them (D8, D10, D22, D29, D30). */
export const serializePricedWork = (work: PricedWork): PricedWorkJson => ({
  service_type: work.serviceType,
  source_language: work.sourceLanguage,
  target_language: work.targetLanguage,
  unit_type: work.unitType,
  unit_count: work.unitCount,
  document_pages: work.documentPages,
  scanned_pages: work.scannedPages,
  subtotal_cents: work.subtotalCents,
  addons: work.addons.map((line) => ({
    code: line.code,
    quantity: line.quantity,
    unit_price_cents: line.unitPriceCents,
    total_cents: line.totalCents,
  })),
  addons_total_cents: work.addonsTotalCents,
  total_cents: work.totalCents,
  currency: work.currency,
  reference: work.reference,
  purchase_order: work.purchaseOrder,
  shipping_address: work.shippingAddress && {
    name: work.shippingAddress.name,
    line1: work.shippingAddress.line1,
    line2: work.shippingAddress.line2,
    city: work.shippingAddress.city,
    region: work.shippingAddress.region,
    postal_code: work.shippingAddress.postalCode,
    country: work.shippingAddress.country,
  },
  placed_by: serializePlacedBy(work.placedBy),
  instructions: work.instructions,
});
