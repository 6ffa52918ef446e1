import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import {
  DomainError,
  ForbiddenError,
  NotFoundError,
  ProviderUnavailableError,
  UnauthenticatedError,
  ValidationError,
} from '../../domain/shared/errors';
import { LIMIT_CODES } from './limit-errors';

/**
 * Domain errors to `extensions.code` (D14), mirroring the REST mapping; BAD_USER_INPUT carries the same
 * `errors` map as the REST 422 body. Anything unexpected becomes a bare INTERNAL_SERVER_ERROR.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };
  if (original instanceof ValidationError) {
    return { ...base, message: original.message, extensions: { code: 'BAD_USER_INPUT', errors: original.errors } };
  }
  if (original instanceof NotFoundError) return { ...base, extensions: { code: 'NOT_FOUND' } };
  if (original instanceof UnauthenticatedError) return { ...base, extensions: { code: 'UNAUTHENTICATED' } };
  if (original instanceof ForbiddenError) return { ...base, extensions: { code: 'FORBIDDEN' } };
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
  return { ...base, extensions: { code } };
}

/**
 * Apollo refuses some requests (a persisted-query hash that does not match its query, an unsupported persisted-query
 * version) with an uncoded error that only carries a 4xx HTTP status: a client mistake, not a failure (D25).
 */
function isRequestRefusal(error: unknown): boolean {
  const status = error instanceof GraphQLError ? (error.extensions?.http as { status?: number } | undefined)?.status : undefined;
  return status !== undefined && status >= 400 && status < 500;
}

/** Errors worth logging: the ones the client is not told the details of. */
export const isUnexpected = (error: unknown): boolean => !(unwrapResolverError(error) instanceof DomainError) && !isRequestRefusal(error);
