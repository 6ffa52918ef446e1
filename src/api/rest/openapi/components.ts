/** Shared OpenAPI pieces: error bodies of D2, formats of D4, the list envelope of D3. */
type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string): Schema => ({ $ref: `#/components/responses/${name}` });

export const object = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

export const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: 'null' }] });

/** `{ "data": ... }`, the single-resource wrapper of the contract. */
export const dataOf = (schema: Schema): Schema => object({ data: schema });

/** D3's length-aware list envelope around items of one schema. */
export const listOf = (item: Schema): Schema =>
  object({
    data: { type: 'array', items: item },
    links: object({
      first: { type: 'string', format: 'uri' },
      last: { type: 'string', format: 'uri' },
      prev: nullable({ type: 'string', format: 'uri' }),
      next: nullable({ type: 'string', format: 'uri' }),
    }),
    meta: object({
      current_page: { type: 'integer', minimum: 1 },
      from: nullable({ type: 'integer', minimum: 1 }),
      last_page: { type: 'integer', minimum: 1 },
      path: { type: 'string', format: 'uri' },
      per_page: { type: 'integer', minimum: 1, maximum: 100 },
      to: nullable({ type: 'integer', minimum: 1 }),
      total: { type: 'integer', minimum: 0 },
    }),
  });

/** `page` and `per_page` of every list (D3). */
export const pageParameters = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 15 } },
];

export const json = (schema: Schema, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** The priced fields quotes and orders share. */
export const pricedWorkProperties: Record<string, Schema> = {
  service_type: { enum: ['certified', 'standard'] },
  source_language: { type: 'string' },
  target_language: { type: 'string' },
  unit_type: { enum: ['page', 'word'] },
  unit_count: { type: 'integer', minimum: 1 },
  subtotal_cents: ref('Cents'),
  addons: { type: 'array', items: ref('QuotedAddon') },
  addons_total_cents: ref('Cents'),
  total_cents: ref('Cents'),
  currency: ref('Currency'),
  reference: nullable({ type: 'string' }),
  shipping_address: nullable(ref('ShippingAddress')),
};

export const schemas: Record<string, Schema> = {
  ShippingAddress: {
    ...object(
      {
        name: { type: 'string', maxLength: 200, description: 'Who receives the parcel.' },
        line1: { type: 'string', maxLength: 200 },
        line2: nullable({ type: 'string', maxLength: 200 }),
        city: { type: 'string', maxLength: 100 },
        region: nullable({ type: 'string', maxLength: 100, description: 'State, province or county, where the country uses one.' }),
        postal_code: { type: 'string', maxLength: 20 },
        country: { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 country code; answered in upper case.' },
      },
      ['name', 'line1', 'city', 'postal_code', 'country'],
    ),
    description: 'Where mailed hard copies go: required with the hard_copy add-on, and only with it. On quotes and their orders.',
  },
  Timestamp: {
    type: 'string',
    description: 'UTC, six fractional digits (D4).',
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z$',
    examples: ['2026-11-22T09:30:00.123000Z'],
  },
  Id: { type: 'string', format: 'uuid' },
  Cents: { type: 'integer', minimum: 0, description: 'Money in integer cents; see `currency`.' },
  Currency: { type: 'string', pattern: '^[A-Z]{3}$', examples: ['USD'] },
  Error: object({ message: { type: 'string' } }),
  ValidationError: object({
    message: { type: 'string', description: 'The first error, plus how many more there are.' },
    errors: {
      type: 'object',
      description: 'Field name to its messages.',
      additionalProperties: { type: 'array', items: { type: 'string' }, minItems: 1 },
    },
  }),
  ServerError: object({ message: { const: 'Server Error.' }, request_id: { type: 'string' } }),
};

const errorResponse = (description: string, schema = ref('Error')) => json(schema, description);

const countHeader = (description: string) => ({ description, schema: { type: 'string', pattern: '^\\d+$' } });

/** Sent on every rate-limited answer (D16), whatever its status. */
export const rateLimitHeaders = {
  'X-RateLimit-Limit': countHeader('The budget of a minute (a REST request costs 1; GraphQL shares it).'),
  'X-RateLimit-Remaining': countHeader('What is left of the budget in the current minute.'),
};

/** Sent with every answer of a resource or a list (D23), the 304 included. */
export const conditionalHeaders = {
  ETag: {
    description: 'Strong entity tag of the answer. It changes whenever anything in the answer changes (status, files, payment, ...), fresh download links aside.',
    schema: { type: 'string', pattern: '^"[^"]*"$' },
  },
  'Cache-Control': { description: 'A cache may keep the answer for this client only, and must ask again before using it.', schema: { const: 'private, no-cache' } },
};

export const responses: Record<string, Schema> = {
  NotModified: {
    description:
      'Nothing in the answer changed since the one whose `ETag` was sent in `If-None-Match` (D23): no body. Download links are not ' +
      'refreshed by a 304; ask again without `If-None-Match` for fresh ones.',
    headers: { ...conditionalHeaders, ...rateLimitHeaders },
  },
  MalformedJson: errorResponse('The body is not valid JSON: `{"message":"Malformed JSON body."}`.'),
  PayloadTooLarge: errorResponse('The JSON body is over 1 MB: `{"message":"The request body is too large."}` (D25).'),
  UnsupportedMediaType: errorResponse('A body of a media type, charset or content encoding the operation does not read (D25).'),
  Unauthenticated: {
    ...errorResponse('Missing, invalid, revoked or wrong-deployment key: `{"message":"Unauthenticated."}`.'),
    headers: { 'WWW-Authenticate': { schema: { const: 'Bearer' } } },
  },
  Forbidden: errorResponse('Valid key of an account that is pending or suspended: `{"message":"Account not approved."}`.'),
  NotFound: errorResponse('Missing, malformed or another account\'s id: `{"message":"Not found."}`.'),
  ValidationFailed: errorResponse('Invalid input or a refused business rule, keyed by field (D2).', ref('ValidationError')),
  ServerError: errorResponse('Unexpected failure; quote `request_id` to support. Never a stack trace.', ref('ServerError')),
  TooManyAttempts: {
    ...errorResponse('Past the rate limit (D16): `{"message":"Too Many Attempts."}`. Retry after `Retry-After` seconds.'),
    headers: { 'Retry-After': { schema: { type: 'string', pattern: '^\\d+$' } }, ...rateLimitHeaders },
  },
  IdempotencyInProgress: errorResponse('The first request with this Idempotency-Key is still being answered; retry shortly.'),
  ProviderUnavailable: {
    ...errorResponse('An outside provider (file storage, payment, ...) failed; nothing was changed. Retry after `Retry-After` seconds.'),
    headers: { 'Retry-After': { schema: { type: 'string', pattern: '^\\d+$' } } },
  },
};

export const parameters = {
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description:
      'ETags of answers the client holds, or `*`. When one still matches (compared weakly, as RFC 9110 says: `W/"x"` matches `"x"`), the ' +
      'answer is 304 with no body. Polling with it is cheap: the service reads only the version of an order or a booking.',
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    schema: { type: 'string', minLength: 1, maxLength: 255 },
    description:
      'Kept 24 hours per account: the same key with the same request replays the first answer (with ' +
      '`Idempotent-Replayed: true`); with a different request it is 422. Uploads are compared by a digest of their fields, file names and ' +
      'file contents, whatever the multipart boundary.',
  },
};

export const securitySchemes = {
  apiKey: { type: 'http', scheme: 'bearer', description: 'The account API key: `Authorization: Bearer ltk_test_...`.' },
};
