import { quoteStatus, type Quote } from '../../../domain/quotes/quote.entity';
import { formatTimestamp } from '../../format';
import type { QuoteJson } from '../responses/quote.response';
import { serializePricedWork } from './priced-work.serializer';

/** A quote as `getQuote` answers it, with D8's echo of the request and the priced add-on lines. */
export const serializeQuote = (quote: Quote): QuoteJson => ({
  id: quote.id,
  status: quoteStatus(quote),
  ...serializePricedWork(quote),
  file_ids: quote.fileIds,
  unit_price_cents: quote.unitPriceCents,
  expires_at: formatTimestamp(quote.expiresAt),
  created_at: formatTimestamp(quote.createdAt),
});
