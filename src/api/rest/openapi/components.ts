import { DEFAULT_PER_PAGE, MAX_PAGE } from '../../../domain/shared/pagination';

/** Shared OpenAPI pieces: error bodies of D2, formats of D4, the list envelope of D3. Descriptions speak to integrators. */
export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string): Schema => ({ $ref: `#/components/responses/${name}` });

export const object = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

/** `schema` or null; the description sits beside `oneOf`, where documentation tools show it. */
export const nullable = (schema: Schema, description?: string): Schema => ({
  ...(description ? { description } : {}),
  oneOf: [schema, { type: 'null' }],
});

/** A `$ref` with its own description (OpenAPI 3.1 allows the sibling). */
export const described = (schema: Schema, description: string): Schema => ({ ...schema, description });

/** `{ "data": ... }`, the wrapper of a single resource in every REST answer. */
export const dataOf = (schema: Schema, description = 'The resource.'): Schema =>
  object({ data: described(schema, description) });

/** D3's length-aware list envelope around items of one schema. */
export const listOf = (item: Schema): Schema =>
  object({
    data: { type: 'array', items: item, description: "This page's items, newest first (by creation time)." },
    links: described(
      object({
        first: {
          type: 'string',
          format: 'uri',
          description: "The first page, with the request's other query parameters kept.",
        },
        last: { type: 'string', format: 'uri', description: 'The last page (the first page when the list is empty).' },
        prev: nullable({ type: 'string', format: 'uri' }, 'The previous page; null on the first page.'),
        next: nullable(
          { type: 'string', format: 'uri' },
          'The next page; null on the last page. Follow it until null to read the whole list.',
        ),
      }),
      'Absolute links to other pages of the same list.',
    ),
    meta: described(
      object({
        current_page: { type: 'integer', minimum: 1, description: 'The page answered (`page`).' },
        from: nullable(
          { type: 'integer', minimum: 1 },
          "Position of this page's first item in the whole list, from 1; null when the page is empty.",
        ),
        last_page: { type: 'integer', minimum: 1, description: 'Number of the last page; 1 when the list is empty.' },
        path: { type: 'string', format: 'uri', description: "The list's absolute URL without query parameters." },
        per_page: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'Items per page (`per_page`, 15 unless given).',
        },
        to: nullable(
          { type: 'integer', minimum: 1 },
          "Position of this page's last item in the whole list; null when the page is empty.",
        ),
        total: { type: 'integer', minimum: 0, description: 'Items in the whole list, with the same filters.' },
      }),
      'Where this page stands in the list.',
    ),
  });

/** The prose of `page` and `per_page`, the query parameters of every list (D3). */
export const pageDocs = {
  page: {
    description: `Page number, from 1 to ${MAX_PAGE}. A page past the last answers an empty \`data\`; 0, negative or not a number is 422.`,
    default: 1,
  },
  per_page: { description: 'Items per page, 1 to 100; outside that range is 422.', default: DEFAULT_PER_PAGE },
};

/** `updated_since` on the lists integrators poll (D23): what changed since the last poll, in one request. */
export const updatedSinceParameter = (items: string) => ({
  name: 'updated_since',
  in: 'query',
  description:
    `Only the ${items} changed at or after this time (ISO 8601 with an explicit offset), oldest change first instead of newest first. ` +
    `Pass the \`updated_at\` of the last change you saw: it comes again (the bound is inclusive), with everything changed since. A time that does not exist is 422.`,
  schema: { type: 'string', format: 'date-time' },
  example: '2026-11-22T09:30:00.123456Z',
});

/** A JSON answer; `example` is checked against `schema` by the tests and by the lint. */
export const json = (schema: Schema, description: string, example?: unknown) => ({
  description,
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});

/**
 * A 201 with the created resource's address (RFC 9110 section 10.2.2): absolute, from the deployment's base URL,
 * like every other link this API gives; an Idempotency-Key replay sends the same one.
 */
export const created = (schema: Schema, description: string, example: unknown, path: string) => ({
  ...json(schema, description, example),
  headers: {
    Location: {
      description: `The new resource: \`${path}\`. Read it there with GET.`,
      schema: { type: 'string', format: 'uri' },
      example: `https://api.translations.example.org/api/v1${path.replace('{id}', '0b6f7a4e-2c1d-4f8a-9e3b-5d7c1a2b3c4d')}`,
    },
  },
});

export const schemas: Record<string, Schema> = {
  Error: object({ message: { type: 'string', description: 'What went wrong, in English, fit to log or show.' } }),
  ValidationError: object({
    message: {
      type: 'string',
      description:
        'The first error, plus how many more there are: `The unit count field is required. (and 1 more error)`.',
    },
    errors: {
      type: 'object',
      description:
        'Field name (nested fields dotted: `addons.0.code`) to its messages, so a form can show each next to its input.',
      additionalProperties: { type: 'array', items: { type: 'string' }, minItems: 1 },
    },
  }),
  ServerError: object({
    message: { const: 'Server Error.', description: 'Always `Server Error.`; no detail and never a stack trace.' },
    request_id: {
      type: 'string',
      description: 'The same as the `X-Request-Id` header: quote it to support to find the failure.',
    },
  }),
};

const errorResponse = (description: string, schema = ref('Error')) => json(schema, description);

const retryAfter = { description: 'Seconds to wait before retrying.', schema: { type: 'string', pattern: '^\\d+$' } };

const countHeader = (description: string) => ({ description, schema: { type: 'string', pattern: '^\\d+$' } });

/** Sent on every rate-limited answer (D16), whatever its status. */
export const rateLimitHeaders = {
  'X-RateLimit-Limit': countHeader(
    'The budget of a clock minute (a REST request costs 1; GraphQL requests spend their cost from the same budget).',
  ),
  'X-RateLimit-Remaining': countHeader('What is left of the budget in the current minute.'),
};

/** Sent with every answer of a resource or a list (D23), the 304 included. */
export const conditionalHeaders = {
  ETag: {
    description:
      'Strong entity tag of the answer. It changes whenever anything in the answer changes (status, files, payment, ...), fresh download links aside.',
    schema: { type: 'string', pattern: '^"[^"]*"$' },
  },
  'Cache-Control': {
    description: 'A cache may keep the answer for this client only, and must ask again before using it.',
    schema: { const: 'private, no-cache' },
  },
};

export const responses: Record<string, Schema> = {
  NotModified: {
    description:
      'Nothing in the answer changed since the one whose `ETag` was sent in `If-None-Match`: no body. Download links are not ' +
      'refreshed by a 304; ask again without `If-None-Match` for fresh ones.',
    headers: { ...conditionalHeaders, ...rateLimitHeaders },
  },
  MalformedJson: errorResponse(
    'The body is not valid JSON (`{"message":"Malformed JSON body."}`), nests deeper than 64 levels, or is compressed (`Content-Encoding`) and does not decompress (`{"message":"Malformed request body."}`).',
  ),
  PayloadTooLarge: errorResponse('The JSON body is over 1 MB: `{"message":"The request body is too large."}`.'),
  UnsupportedMediaType: errorResponse(
    'A body of a media type, charset or content encoding the operation does not read: `POST /files` takes `multipart/form-data`, every other body is JSON in UTF-8.',
  ),
  Unauthenticated: {
    ...errorResponse('Missing, invalid, revoked or wrong-deployment key: `{"message":"Unauthenticated."}`.'),
    headers: {
      'WWW-Authenticate': {
        description: 'Always `Bearer`: send the API key as a bearer token.',
        schema: { const: 'Bearer' },
      },
    },
  },
  Forbidden: errorResponse(
    'Valid key of an account that is pending or suspended (`{"message":"Account not approved."}`), or a member\'s session whose role may not do this ' +
      '(`{"message":"This action is not allowed for your role."}`: a viewer only reads).',
  ),
  NotFound: errorResponse('Missing, malformed or another account\'s id: `{"message":"Not found."}`.'),
  ValidationFailed: errorResponse(
    'Invalid input or a refused business rule (a wrong state, an expired quote), keyed by the field at fault.',
    ref('ValidationError'),
  ),
  ServerError: errorResponse(
    'Unexpected failure; quote `request_id` to support. Never a stack trace.',
    ref('ServerError'),
  ),
  TooManyAttempts: {
    ...errorResponse(
      'Past the rate limit: `{"message":"Too Many Attempts."}`. Retry after `Retry-After` seconds, when the minute ends.',
    ),
    headers: { 'Retry-After': retryAfter, ...rateLimitHeaders },
  },
  IdempotencyInProgress: errorResponse(
    'The first request with this Idempotency-Key is still being answered; retry shortly.',
  ),
  ProviderUnavailable: {
    ...errorResponse(
      'An outside provider (file storage, payment, ...) failed; nothing was changed. Retry after `Retry-After` seconds.',
    ),
    headers: { 'Retry-After': retryAfter },
  },
};

export const parameters = {
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    // Node refuses a request whose headers pass 16 KB before this is read.
    schema: { type: 'string', maxLength: 16384 },
    description:
      'ETags of answers the client holds, or `*`. When one still matches (compared weakly, as RFC 9110 says: `W/"x"` matches `"x"`), the ' +
      'answer is 304 with no body. Polling with it is cheap: the service reads only the version of an order or a booking, and a 304 is not ' +
      'charged to the rate limit.',
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
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The account API key (`Authorization: Bearer ltk_test_...`), or a member's session token from GraphQL `signIn` (`Bearer ltk_session_...`), " +
      "which acts with the member's role: `admin` and `member` do everything here, `viewer` only reads.",
  },
};
