import { quoteStatus, type Quote } from '../../../domain/quotes/quote.entity';
import { formatTimestamp } from '../../format';

/** Contract 2.5 plus D8's echo of the request and the priced add-on lines. */
export const serializeQuote = (quote: Quote) => ({
  id: quote.id,
  status: quoteStatus(quote),
  service_type: quote.serviceType,
  source_language: quote.sourceLanguage,
  target_language: quote.targetLanguage,
  file_ids: quote.fileIds,
  unit_type: quote.unitType,
  unit_count: quote.unitCount,
  unit_price_cents: quote.unitPriceCents,
  subtotal_cents: quote.subtotalCents,
  addons: quote.addons.map((line) => ({
    code: line.code,
    quantity: line.quantity,
    unit_price_cents: line.unitPriceCents,
    total_cents: line.totalCents,
  })),
  addons_total_cents: quote.addonsTotalCents,
  total_cents: quote.totalCents,
  currency: quote.currency,
  reference: quote.reference,
  expires_at: formatTimestamp(quote.expiresAt),
  created_at: formatTimestamp(quote.createdAt),
});
