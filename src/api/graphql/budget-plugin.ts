import type { ApolloServerPlugin, HeaderMap } from '@apollo/server';
import type { RateLimitService } from '../../domain/rate-limits/rate-limit.service';
import { TooManyAttemptsError } from '../../shared/errors';
import { rateLimitHeaders } from '../http/rate-limit-headers';
import type { GraphQLContext } from './context';
import { queryTooComplex, rateLimited } from './limit-errors';
import { queryCost } from './query-cost';

/** The most one request may cost (D24), whatever budget its caller has. */
export const MAX_QUERY_COST = 1000;

/**
 * D24 on the GraphQL door: an operation's cost is computed before it runs, refused over the maximum (which is
 * also never more than a whole budget, so that every accepted query can be afforded), spent from the caller's
 * budget and reported in `extensions.cost`. A request refused before its operation was known (a document
 * that does not parse or validate) still costs 1, so that refusals cannot be sent for free.
 */
export function budgetPlugin(rateLimits: RateLimitService): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart({ contextValue }) {
      const bucket = contextValue.budget;
      const maxCost = bucket ? Math.min(MAX_QUERY_COST, rateLimits.perMinute) : MAX_QUERY_COST;
      let cost: number | undefined;
      let charged = !bucket;
      const spend = (headers: HeaderMap, amount: number): void => {
        charged = true;
        const state = rateLimits.consume(bucket!, amount);
        for (const [name, value] of Object.entries(rateLimitHeaders(state))) headers.set(name.toLowerCase(), value);
      };
      return {
        async didResolveOperation({ schema, document, operation, request, response }) {
          cost = operation ? queryCost({ schema, document, operation, variables: request.variables }) : 1;
          if (!charged) {
            try {
              spend(response.http.headers, cost > maxCost ? 1 : cost);
            } catch (error) {
              throw error instanceof TooManyAttemptsError ? rateLimited(error.state, cost) : error;
            }
          }
          if (cost > maxCost) throw queryTooComplex(cost, maxCost);
        },
        async willSendResponse({ response }) {
          if (!charged) {
            try {
              spend(response.http.headers, 1);
            } catch (error) {
              if (!(error instanceof TooManyAttemptsError)) throw error;
            }
          }
          if (cost !== undefined && response.body.kind === 'single') {
            response.body.singleResult.extensions = { ...response.body.singleResult.extensions, cost };
          }
        },
      };
    },
  };
}
