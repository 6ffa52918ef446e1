import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { TooManyAttemptsError } from '../../shared/errors';
import { rateLimitHeaders } from '../http/rate-limit-headers';

/** The codes of the refusals below, whose extensions the client is meant to read. */
export const LIMIT_CODES = new Set(['DOCUMENT_TOO_LARGE', 'QUERY_TOO_COMPLEX', 'RATE_LIMITED']);

/** D24: over the per-request maximum, refused before anything runs; 400 as for the other refused documents. */
export const queryTooComplex = (cost: number, maxCost: number) =>
  new GraphQLError(`The query costs ${cost}, more than the limit of ${maxCost}.`, {
    extensions: { code: 'QUERY_TOO_COMPLEX', cost, maxCost, http: { status: 400 } },
  });

/**
 * D16 on the GraphQL door: REST's 429 with `Retry-After` and the `X-RateLimit-*` headers, and the wait in
 * `retryAfterSeconds` as on SERVICE_UNAVAILABLE.
 */
export const rateLimited = (state: TooManyAttemptsError['state'], cost?: number) =>
  new GraphQLError('Too Many Attempts.', {
    extensions: {
      code: 'RATE_LIMITED',
      retryAfterSeconds: state.resetInSeconds,
      ...(cost === undefined ? {} : { cost }),
      http: {
        status: 429,
        headers: new HeaderMap(
          Object.entries({ ...rateLimitHeaders(state), 'Retry-After': String(state.resetInSeconds) }).map(([k, v]) => [
            k.toLowerCase(),
            v,
          ]),
        ),
      },
    },
  });
