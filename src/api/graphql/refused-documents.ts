import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { RateLimitService, RateLimitState } from '../../domain/rate-limits/rate-limit.service';
import { TooManyAttemptsError } from '../../shared/errors';
import { rateLimitHeaders } from '../http/rate-limit-headers';
import { MAX_QUERY_COST } from './budget-plugin';
import { MAX_DOCUMENT_BYTES } from './document-admission';

/** D36: a document over 64 KB, refused before it is parsed. */
export const documentTooLarge = (bytes: number) =>
  new GraphQLError(`The GraphQL document is ${bytes} bytes, more than the limit of ${MAX_DOCUMENT_BYTES}.`, {
    extensions: { code: 'DOCUMENT_TOO_LARGE', bytes, maxBytes: MAX_DOCUMENT_BYTES, http: { status: 413 } },
  });

/**
 * D36: a document refused for its size, depth or fields is charged as if it had run at its requested cost (the most
 * a request may cost when it was not even parsed), so that refusals cost a sender what they cost the service. The
 * refusal keeps its message and code, with its HTTP status and the budget's headers.
 */
export async function chargedRefusal(
  rateLimits: RateLimitService,
  budget: string | null,
  refusal: GraphQLError,
  cost = MAX_QUERY_COST,
): Promise<GraphQLError> {
  let state: Pick<RateLimitState, 'limit' | 'remaining'> | undefined;
  try {
    if (budget) state = await rateLimits.spendUpTo(budget, cost);
  } catch (error) {
    if (!(error instanceof TooManyAttemptsError)) throw error;
    state = error.state;
  }
  const headers = new HeaderMap([['x-ratelimit-cost-requested', String(cost)]]);
  for (const [name, value] of Object.entries(state ? rateLimitHeaders(state) : {}))
    headers.set(name.toLowerCase(), value);
  const { http, ...extensions } = refusal.extensions as { http?: { status?: number } };
  return new GraphQLError(refusal.message, {
    nodes: refusal.nodes,
    extensions: {
      code: 'GRAPHQL_VALIDATION_FAILED',
      ...extensions,
      http: { status: http?.status ?? 400, headers },
    },
  });
}
