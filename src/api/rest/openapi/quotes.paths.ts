import { dataOf, json, listOf, object, pageParameters, pricedWorkProperties, ref, responseRef } from './components';

const quoteId = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Quote id.' };
const authErrors = { 401: responseRef('Unauthenticated'), 403: responseRef('Forbidden') };

export const quoteSchemas = {
  QuoteRequest: {
    type: 'object',
    required: ['source_language', 'target_language', 'service_type', 'file_ids'],
    properties: {
      source_language: { type: 'string', description: 'A code of GET /languages (any case).' },
      target_language: { type: 'string', description: 'Different from source_language.' },
      service_type: { enum: ['certified', 'standard'] },
      file_ids: { type: 'array', minItems: 1, maxItems: 20, items: ref('Id'), description: 'Your uploaded source files.' },
      unit_count: { type: 'integer', minimum: 1, description: 'Required when a file has no detectable count: the pages (certified) or words (standard) of those files.' },
      addons: {
        type: 'array',
        items: {
          type: 'object',
          required: ['code'],
          properties: { code: { type: 'string' }, quantity: { type: 'integer', minimum: 1, maximum: 10, description: 'Per-copy add-ons only.' } },
        },
      },
      reference: { type: 'string', maxLength: 255 },
      shipping_address: ref('ShippingAddress'),
    },
  },
  QuotedAddon: object({ code: { type: 'string' }, quantity: { type: 'integer', minimum: 1 }, unit_price_cents: ref('Cents'), total_cents: ref('Cents') }),
  Quote: object({
    id: ref('Id'),
    status: { enum: ['priced', 'converted', 'expired'] },
    ...pricedWorkProperties,
    file_ids: { type: 'array', items: ref('Id') },
    unit_price_cents: ref('Cents'),
    expires_at: ref('Timestamp'),
    created_at: ref('Timestamp'),
  }),
};

export const quotePaths = {
  '/quotes': {
    post: {
      operationId: 'createQuote',
      tags: ['Quotes'],
      summary: 'Create a quote',
      description: 'Prices at once from the files\' counts (analysing any still pending). Prices are kept with the quote; it expires after 7 days.',
      requestBody: { required: true, content: { 'application/json': { schema: ref('QuoteRequest') } } },
      responses: { 201: json(dataOf(ref('Quote')), 'The priced quote.'), ...authErrors, 422: responseRef('ValidationFailed') },
    },
    get: {
      operationId: 'listQuotes',
      tags: ['Quotes'],
      summary: 'List quotes, newest first',
      parameters: [{ name: 'status', in: 'query', schema: { enum: ['priced', 'converted', 'expired'] } }, ...pageParameters],
      responses: { 200: json(listOf(ref('Quote')), 'One page of quotes.'), ...authErrors, 422: responseRef('ValidationFailed') },
    },
  },
  '/quotes/{id}': {
    get: {
      operationId: 'getQuote',
      tags: ['Quotes'],
      summary: 'One quote',
      parameters: [quoteId],
      responses: { 200: json(dataOf(ref('Quote')), 'The quote.'), ...authErrors, 404: responseRef('NotFound') },
    },
    delete: {
      operationId: 'deleteQuote',
      tags: ['Quotes'],
      summary: 'Discard a quote that was not converted',
      parameters: [quoteId],
      responses: {
        204: { description: 'Discarded; its files can be deleted again unless another quote or order uses them.' },
        ...authErrors,
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
      },
    },
  },
};
