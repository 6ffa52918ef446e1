import { accountPaths } from './account.paths';
import { bookingPaths, bookingSchemas } from './bookings.paths';
import { catalogPaths } from './catalog.paths';
import { certificatePaths } from './certificates.paths';
import { filePaths } from './files.paths';
import { orderPaths, orderSchemas } from './orders.paths';
import { responseComponents } from '../responses/response-components';
import { orderMessagePaths, orderMessageSchemas } from './order-messages.paths';
import { quotePaths, quoteSchemas } from './quotes.paths';
import { invoicePaths } from './invoices.paths';
import { receiptPaths } from './receipts.paths';
import { withLinks } from './links';
import { shippingPaths, shippingSchemas } from './shipping.paths';
import {
  conditionalHeaders,
  json,
  parameters,
  rateLimitHeaders,
  responseRef,
  responses,
  schemas,
  securitySchemes,
} from './components';

/** A POST or PUT may carry a body, refused before the operation when it cannot be read (D2, D25). */
const bodyErrors = {
  400: responseRef('MalformedJson'),
  413: responseRef('PayloadTooLarge'),
  415: responseRef('UnsupportedMediaType'),
};

type Operation = { responses: Record<string, unknown>; parameters?: unknown[]; security?: unknown[]; tags?: string[] };

const metaPaths = {
  '/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['Meta'],
      summary: 'This document',
      description:
        'The OpenAPI 3.1 description of REST v1, with this deployment as its server. No key needed. `/docs` renders it for people.',
      security: [],
      responses: {
        200: json(
          {
            type: 'object',
            required: ['openapi', 'info', 'paths'],
            properties: {
              openapi: { const: '3.1.0', description: 'The OpenAPI version.' },
              info: { type: 'object', description: 'Title, version and general rules of the API.' },
              paths: { type: 'object', description: 'Every operation.' },
            },
          },
          'The OpenAPI document.',
          {
            openapi: '3.1.0',
            info: { title: 'Legal translation and interpreter booking API', version: '1.0.0' },
            paths: {},
          },
        ),
        // A GET needs no body, but one that is sent is read like any other and can be refused.
        ...bodyErrors,
      },
    },
  },
};
type Paths = Record<string, Record<string, Operation>>;

/** Public operations limited per client address (D16, D20). */
const PER_ADDRESS_TAGS = ['Catalog', 'Verification'];

/**
 * What holds for many operations, said once here: every operation can fail unexpectedly (500), every POST can
 * (and PUT) carry a body that cannot be read (400, 413, 415), authenticated and catalog operations are rate limited
 * (429, D16), every authenticated POST honours Idempotency-Key (D9), and every GET of a resource or a list (the
 * rate-limited JSON ones) answers an ETag and honours If-None-Match (D23).
 */
function withCommonResponses(paths: Paths): Paths {
  const authenticated = (operation: Operation) => operation.security?.length !== 0;
  const idempotent = (method: string, operation: Operation) => method === 'post' && authenticated(operation);
  const limited = (operation: Operation) =>
    authenticated(operation) || PER_ADDRESS_TAGS.some((tag) => operation.tags?.includes(tag));
  const conditional = (method: string, operation: Operation) =>
    method === 'get' &&
    limited(operation) &&
    'application/json' in ((operation.responses[200] as { content?: object } | undefined)?.content ?? {});
  const withConditional = (operation: Operation): Operation => ({
    ...operation,
    parameters: [...(operation.parameters ?? []), { $ref: '#/components/parameters/IfNoneMatch' }],
    responses: {
      ...operation.responses,
      200: {
        ...(operation.responses[200] as object),
        headers: { ...(operation.responses[200] as { headers?: object }).headers, ...conditionalHeaders },
      },
      304: responseRef('NotModified'),
    },
  });
  const withCommon = (method: string, operation: Operation, extra: Record<string, unknown> = {}) => {
    const own = method === 'post' || method === 'put' ? { ...bodyErrors, ...operation.responses } : operation.responses;
    if (!limited(operation)) return { ...own, ...extra, 500: responseRef('ServerError') };
    // Every answer of a limited operation says where the caller stands (D16); error answers are shared refs.
    const answers = Object.fromEntries(
      Object.entries(own).map(([status, response]) => [
        status,
        status.startsWith('2')
          ? { ...(response as object), headers: { ...(response as { headers?: object }).headers, ...rateLimitHeaders } }
          : response,
      ]),
    );
    return { ...answers, ...extra, 429: responseRef('TooManyAttempts'), 500: responseRef('ServerError') };
  };
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => [
          method,
          idempotent(method, operation)
            ? {
                ...operation,
                parameters: [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }],
                responses: withCommon(method, operation, { 409: responseRef('IdempotencyInProgress') }),
              }
            : conditional(method, operation)
              ? { ...withConditional(operation), responses: withCommon(method, withConditional(operation)) }
              : { ...operation, responses: withCommon(method, operation) },
        ]),
      ),
    ]),
  );
}

const TAGS = [
  { name: 'Catalog', description: 'Languages and the rate card; public.' },
  { name: 'Account', description: 'The account an API key belongs to.' },
  {
    name: 'Files',
    description: 'Source documents you upload, and the translations and certificates delivered for your orders.',
  },
  { name: 'Quotes', description: 'Instant, binding prices for translating uploaded files; valid 7 days.' },
  { name: 'Orders', description: 'A converted quote: paid, translated, reviewed when certified, delivered.' },
  { name: 'Invoices', description: 'Monthly invoices of accounts on terms, for the work they placed on account.' },
  { name: 'Interpretation', description: 'Interpreter bookings: requested, confirmed by staff, paid, completed.' },
  {
    name: 'Payments',
    description: 'Where the payment provider returns the payer and sends its events; not called by integrators.',
  },
  { name: 'Verification', description: 'Public checks of a certificate of accuracy by its verification code.' },
  {
    name: 'Sandbox',
    description: "The sandbox deployment's test checkout, standing in for the payment provider's pages.",
  },
  { name: 'Meta', description: 'This description of the API.' },
];

/** The OpenAPI 3.1 description of REST v1, served at /api/v1/openapi.json; tests validate every response against it. */
export function openApiDocument(serverUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Legal translation and interpreter booking API',
      version: '1.0.0',
      // Served to the operator's clients under their service agreement; not an open licence.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description:
        'REST v1 of a legal translation service: upload documents, get an instant quote, convert it into an order and pay, poll the order until its ' +
        'translation (and, for certified work, the signed certificate of accuracy) can be downloaded; book interpreters the same way. There are no ' +
        'webhooks: poll, cheaply, with `If-None-Match`.\n\n' +
        'Money is integer cents with a currency; timestamps are UTC with six fractional digits. Every authenticated POST honours `Idempotency-Key`, so a retry is safe. ' +
        'Errors: 401/403/404/422 as documented per operation, 400 for a body that is not JSON or nests deeper than 64 levels, 413 for a body over 1 MB, ' +
        '415 for a body of another media type or charset, 404 for a path that is not valid percent-encoding, 405 with `Allow` ' +
        'for a wrong method, 500 with a request id. Every response carries `X-Request-Id`. Requests are rate limited ' +
        'per API key, from one budget a clock minute shared with GraphQL, where a query spends its cost (a REST request ' +
        'costs 1), and the catalog and certificate verification per client address (`RATE_LIMIT_PER_MINUTE`, 120 by default): responses carry ' +
        '`X-RateLimit-Limit` and `X-RateLimit-Remaining`; past the limit, 429 with `Retry-After`. A 304 is not charged.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    tags: TAGS,
    paths: withLinks(
      withCommonResponses({
        ...catalogPaths,
        ...certificatePaths,
        ...accountPaths,
        ...filePaths,
        ...quotePaths,
        ...orderPaths,
        ...orderMessagePaths,
        ...invoicePaths,
        ...receiptPaths,
        ...shippingPaths,
        ...bookingPaths,
        ...metaPaths,
      }),
    ),
    components: {
      schemas: {
        ...schemas,
        ...responseComponents(),
        ...shippingSchemas,
        ...quoteSchemas,
        ...orderSchemas,
        ...orderMessageSchemas,
        ...bookingSchemas,
      },
      responses,
      parameters,
      securitySchemes,
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
