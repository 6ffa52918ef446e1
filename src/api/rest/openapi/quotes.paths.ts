import { created, dataOf, described, json, listOf, pageDocs, ref, responseRef } from './components';
import { createQuoteCommand, listQuotesCommand } from '../../../domain/quotes/quote.commands';
import { queryParameters, requestBodySchema } from './request-schema';
import { examplePage, exampleQuote, exampleQuoteRequest } from './examples';

const quoteId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: ref('Id'),
  description: 'Quote id, as answered when it was made.',
};
const authErrors = { 401: responseRef('Unauthenticated'), 403: responseRef('Forbidden') };

export const quoteSchemas = {
  QuoteRequest: requestBodySchema(createQuoteCommand, {
    source_language: 'Language of the documents: a code of `GET /languages` (any case).',
    target_language: 'Language to translate into, a code of `GET /languages`; different from `source_language`.',
    service_type:
      '`certified`: per page, reviewed by a named translator, with a certificate of accuracy (for courts and immigration). `standard`: per word, machine translated.',
    file_ids:
      "Your uploaded source files, 1 to 20. Files still being analysed are analysed before pricing. An unknown id or another account's is 422 under `file_ids`.",
    unit_count:
      'Required when a file is `uncountable`: the pages (certified) or words (standard) of those files, added to the counted ones. Ignored when every file was counted.',
    addons: 'Add-ons from `GET /pricing`, each code at most once. `notarization` is for certified quotes only.',
    'addons.code': 'An add-on code of `GET /pricing` (`notarization`, `hard_copy`, `rush_2h`).',
    'addons.quantity':
      'Copies, 1 to 10, for per-copy add-ons (`hard_copy`); 1 when not given. A flat add-on (`notarization`, `rush_2h`) accepts only 1 (422 under `addons.<n>.quantity` otherwise).',
    reference: 'Your own reference (a matter or case number), echoed on the quote and its order.',
    purchase_order:
      'Your purchase order number, at most 64 characters, echoed on the quote and its order and printed on the invoice. Required (422) when your account is set to require one.',
    instructions:
      'Optional instructions to the translator, at most 2,000 characters: name spellings as on a passport, terms to keep, the format wanted. Echoed on the quote and its order; never printed on the certificate.',
    shipping_address: described(
      ref('ShippingAddressRequest'),
      'Where to mail the hard copies: optional with the `hard_copy` add-on (it can be set later on the order with `PUT /orders/{id}/shipping_address`), refused without it.',
    ),
  }),
};

export const quotePaths = {
  '/quotes': {
    post: {
      operationId: 'createQuote',
      tags: ['Quotes'],
      summary: 'Create a quote',
      description:
        "Prices at once from the files' counts (analysing any still pending): certified at the page rate (250 words or fewer = 1 page, per file), standard at the word rate, plus add-ons. " +
        'Prices are kept with the quote; it expires after 7 days. Convert it into an order to pay. ' +
        'If document analysis cannot run (an outage, or too many of your documents already waiting for it), nothing is created and the answer is 503 with `Retry-After`.',
      requestBody: {
        required: true,
        description: 'What to price.',
        content: { 'application/json': { schema: ref('QuoteRequest'), example: exampleQuoteRequest } },
      },
      responses: {
        201: created(
          dataOf(ref('Quote'), 'The new quote.'),
          'The priced quote.',
          { data: exampleQuote },
          '/quotes/{id}',
        ),
        ...authErrors,
        422: responseRef('ValidationFailed'),
        503: responseRef('ProviderUnavailable'),
      },
    },
    get: {
      operationId: 'listQuotes',
      tags: ['Quotes'],
      summary: 'List quotes, newest first',
      description: "The account's quotes, newest first, a page at a time, optionally of one status.",
      parameters: queryParameters(listQuotesCommand, {
        status: 'Only quotes in this status; an unknown value is 422.',
        ...pageDocs,
      }),
      responses: {
        200: json(listOf(ref('Quote')), 'One page of quotes.', examplePage('/quotes', exampleQuote)),
        ...authErrors,
        422: responseRef('ValidationFailed'),
      },
    },
  },
  '/quotes/{id}': {
    get: {
      operationId: 'getQuote',
      tags: ['Quotes'],
      summary: 'One quote',
      description: 'One quote with its prices and status.',
      parameters: [quoteId],
      responses: {
        200: json(dataOf(ref('Quote'), 'The quote.'), 'The quote.', { data: exampleQuote }),
        ...authErrors,
        404: responseRef('NotFound'),
      },
    },
    delete: {
      operationId: 'deleteQuote',
      tags: ['Quotes'],
      summary: 'Discard a quote that was not converted',
      description:
        "Deletes a `priced` or `expired` quote; afterwards it answers 404. A converted quote is part of its order's history and answers 422 under `quote`.",
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
