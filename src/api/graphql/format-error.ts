import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import {
  DomainError,
  ForbiddenError,
  GoneError,
  type FieldErrors,
  NotFoundError,
  ProviderUnavailableError,
  TooManyAttemptsError,
  UnauthenticatedError,
  ValidationError,
} from '../../shared/errors';
import { LIMIT_CODES } from './limit-errors';

/**
 * Domain errors to `extensions.code` (D14), mirroring the REST mapping; BAD_USER_INPUT carries the same
 * `errors` map as the REST 422 body, keyed in this door's own casing (`sourceLanguage`, `fileIds.0`, where REST
 * says `source_language`, `file_ids.0`). Anything unexpected becomes a bare INTERNAL_SERVER_ERROR.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };
  if (original instanceof ValidationError) {
    return {
      ...base,
      message: original.message,
      extensions: { code: 'BAD_USER_INPUT', errors: inGraphQLCasing(original.errors) },
    };
  }
  if (original instanceof NotFoundError) return { ...base, extensions: { code: 'NOT_FOUND' } };
  if (original instanceof GoneError) return { ...base, message: original.message, extensions: { code: 'GONE' } };
  if (original instanceof UnauthenticatedError) return { ...base, extensions: { code: 'UNAUTHENTICATED' } };
  if (original instanceof ForbiddenError) return { ...base, extensions: { code: 'FORBIDDEN' } };
  if (original instanceof TooManyAttemptsError) {
    return {
      ...base,
      message: original.message,
      extensions: { code: 'RATE_LIMITED', retryAfterSeconds: original.state.resetInSeconds },
    };
  }
  if (original instanceof ProviderUnavailableError) {
    return { ...base, extensions: { code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: original.retryAfterSeconds } };
  }
  const code = formatted.extensions?.code;
  if (LIMIT_CODES.has(code as string)) return { ...base, extensions: formatted.extensions };
  if (code === undefined || code === 'INTERNAL_SERVER_ERROR') {
    if (isRequestRefusal(error)) return { ...base, extensions: { code: 'BAD_REQUEST' } };
    return { ...base, message: 'Server Error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  // Parse, validation and variable errors from GraphQL itself: their messages are meant for the client.
  const invalid = code === 'BAD_USER_INPUT' ? invalidVariable(formatted.message) : undefined;
  return { ...base, extensions: invalid ? { code, errors: invalid } : { code } };
}

/**
 * GraphQL's own refusal of a variable (a value of the wrong type, a DateTime that does not exist) names the input
 * field only in its message: `Variable "$input" got invalid value "x" at "input.scheduledAt"; <reason>`. The
 * field map it carries then has the same shape as every other BAD_USER_INPUT: `{ scheduledAt: [<reason>] }`.
 */
function invalidVariable(message: string): FieldErrors | undefined {
  const match = /^Variable "\$(\w+)" got invalid value [\s\S]*?(?: at "([^"]+)")?; ([\s\S]+)$/.exec(message);
  if (!match) return undefined;
  const [, variable, path, reason] = match;
  const field = path ? path.replace(new RegExp(`^${variable}\\.?`), '') || variable : variable;
  return { [field]: [reason] };
}

/** The service names fields as REST does (snake_case); GraphQL inputs are camelCase: `shipping_address.postal_code` -> `shippingAddress.postalCode`. */
function inGraphQLCasing(errors: FieldErrors): FieldErrors {
  const camel = (key: string) =>
    key
      .split('.')
      .map((part) => part.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase()))
      .join('.');
  return Object.fromEntries(Object.entries(errors).map(([key, messages]) => [camel(key), messages]));
}

/**
 * Apollo refuses some requests (a persisted-query hash that does not match its query, an unsupported persisted-query
 * version) with an uncoded error that only carries a 4xx HTTP status: a client mistake, not a failure (D25).
 */
function isRequestRefusal(error: unknown): boolean {
  const status =
    error instanceof GraphQLError ? (error.extensions?.http as { status?: number } | undefined)?.status : undefined;
  return status !== undefined && status >= 400 && status < 500;
}

/** Errors worth logging: the ones the client is not told the details of. */
export const isUnexpected = (error: unknown): boolean =>
  !(unwrapResolverError(error) instanceof DomainError) && !isRequestRefusal(error);
