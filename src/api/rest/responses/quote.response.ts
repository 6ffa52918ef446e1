import { z } from 'zod';
import { QuoteStatus } from '../../../domain/quotes/quote.entity';
import { QUOTE_LIFECYCLE } from '../openapi/lifecycles';
import { Cents, Id, Timestamp } from './base.response';
import { pricedWork } from './priced-work.response';
import { component, documented } from './response-registry';

/** A quote as `getQuote` answers it, with D8's echo of the request and the priced add-on lines. */
export const Quote = component(
  'Quote',
  z.strictObject({
    id: Id.describe('The quote id.'),
    status: documented(z.enum(QuoteStatus), QUOTE_LIFECYCLE),
    ...pricedWork,
    file_ids: documented(z.array(Id), 'The source files priced, as requested.'),
    unit_price_cents: Cents.describe(
      'Price of one page or word in cents, kept from when the quote was made: later rate changes do not alter this quote or its order.',
    ),
    expires_at: Timestamp.describe(
      'After this (UTC) the quote is `expired` and can no longer be converted: 7 days after creation unless the operator set another period.',
    ),
    created_at: Timestamp.describe('When the quote was made (UTC).'),
  }),
);

export type QuoteJson = z.output<typeof Quote>;
