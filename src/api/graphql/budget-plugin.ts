import type { ApolloServerPlugin, HeaderMap } from '@apollo/server';
import type { RateLimitService, RateLimitState } from '../../domain/rate-limits/rate-limit.service';
import { TooManyAttemptsError } from '../../shared/errors';
import { rateLimitHeaders } from '../http/rate-limit-headers';
import { actualCost } from './actual-cost';
import type { GraphQLContext } from './context';
import { queryTooComplex, rateLimited } from './limit-errors';
import { queryCost, type OperationCost } from './query-cost';
import { refusedReadLimit, refusedStaffField } from './staff-fields-refused';

/** The most one request may cost (D24), whatever budget its caller has. */
export const MAX_QUERY_COST = 1000;

/**
 * D24 on the GraphQL door: an operation's cost is computed before it runs and refused over the maximum (which is
 * also never more than a whole budget, so that every accepted query can be afforded). Its requested cost is spent
 * from the caller's budget before it runs (so that concurrent requests cannot spend the same budget twice); once it
 * has run, what it did not use is given back, so the caller is charged its actual cost (actual-cost.ts). Both are
 * reported: `extensions.cost` and `extensions.actualCost`, and the `X-RateLimit-Cost-*` headers. Authorization comes
 * before the cost refusal (D28): a caller refused a staff field hears that, not QUERY_TOO_COMPLEX.
 *
 * D36: nothing refused is free. A document refused for its cost is charged that cost (all that is left of the budget
 * when it is more); one that does not validate is charged the cost the admission found for it (document-admission.ts),
 * one that does not parse 1. An answer with an error from a resolver is charged its requested cost: what it returns
 * may have been nulled by the error, so it cannot tell what its resolvers did.
 */
export function budgetPlugin(rateLimits: RateLimitService): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart({ contextValue }) {
      const bucket = contextValue.budget;
      const maxCost = bucket ? Math.min(MAX_QUERY_COST, rateLimits.perMinute) : MAX_QUERY_COST;
      let cost: OperationCost | undefined;
      let charged = !bucket;
      /** What was spent from the budget, in which window, and whether the operation then ran (its unused cost refundable). */
      let spent: { amount: number; window: number; ran: boolean } | undefined;
      const report = (headers: HeaderMap, state: Pick<RateLimitState, 'limit' | 'remaining'>): void => {
        for (const [name, value] of Object.entries(rateLimitHeaders(state))) headers.set(name.toLowerCase(), value);
      };
      const spend = async (headers: HeaderMap, amount: number, ran = false): Promise<void> => {
        charged = true;
        const state = ran ? await rateLimits.consume(bucket!, amount) : await rateLimits.spendUpTo(bucket!, amount);
        spent = { amount, window: state.window, ran };
        report(headers, state);
      };
      return {
        async didResolveOperation({ schema, document, operation, request, response }) {
          cost = operation
            ? queryCost({ schema, document, operation, variables: request.variables })
            : { requested: 1, flat: 0 };
          const { requested } = cost;
          if (!charged) {
            try {
              await spend(response.http.headers, requested, requested <= maxCost);
            } catch (error) {
              throw error instanceof TooManyAttemptsError ? rateLimited(error.state, requested) : error;
            }
          }
          if (requested > maxCost)
            throw (
              (operation && refusedStaffField(schema, document, operation, contextValue.ctx.actor)) ||
              queryTooComplex(requested, maxCost)
            );
          const actor = contextValue.ctx.actor;
          const limited = operation && actor?.kind === 'staff' && refusedReadLimit(schema, document, operation, actor);
          if (limited) throw limited;
        },
        async willSendResponse({ response }) {
          if (!charged) {
            try {
              await spend(response.http.headers, contextValue.requestedCost ?? 1);
            } catch (error) {
              if (!(error instanceof TooManyAttemptsError)) throw error;
            }
          }
          if (cost === undefined || response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          // Without a budget nothing is charged: what the answer would cost is reported all the same.
          const failedWhileRunning = result.errors?.some((error) => error.path !== undefined) ?? false;
          const actual =
            (!bucket || spent?.ran) && !failedWhileRunning
              ? actualCost(result.data ?? null, cost)
              : (spent?.amount ?? cost.requested);
          if (spent?.ran && actual < spent.amount)
            report(response.http.headers, rateLimits.refund(bucket!, spent.amount - actual, spent.window));
          response.http.headers.set('x-ratelimit-cost-requested', String(cost.requested));
          response.http.headers.set('x-ratelimit-cost-actual', String(actual));
          result.extensions = { ...result.extensions, cost: cost.requested, actualCost: actual };
        },
      };
    },
  };
}
