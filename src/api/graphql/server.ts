import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import type { RequestHandler } from 'express';
import type { Ctx } from '../../domain/identity/context';
import { addressBucket, partnerBucket } from '../../domain/rate-limits/rate-limit.service';
import { TooManyAttemptsError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { Services } from '../../services';
import type { PolledAnswer, PolledRead } from '../../domain/accounts/authentication.service';
import { budgetPlugin } from './budget-plugin';
import { httpRequestOf, writeAnswer } from './http-answer';
import { createLoaders, type GraphQLContext } from './context';
import { formatError, isUnexpected } from './format-error';
import { rateLimited } from './limit-errors';
import { DocumentAdmission } from './document-admission';
import { polledFieldOf, type PolledField, type PolledFieldRequest } from './polled-field';
import { chargedRefusal, documentTooLarge } from './refused-documents';
import { buildGraphQLSchema } from './schema';

const LIMITS = { maxDepth: 10, maxIntrospectionDepth: 16, maxFields: 500 };

/** A request as the door reads it, started (`requestStart()`) and its body read, through Express or ahead of it. */
export type GraphQLHttpRequest = IncomingMessage & { ctx: Ctx; body?: unknown };

export interface GraphQLDoor {
  /** Answers a request once: the GraphQL lane's (D23) and Express's call for the same request share one answer. */
  answer(req: GraphQLHttpRequest, res: ServerResponse): Promise<void>;
  /** Express's mount: the same answer, its failure handed to the error handler. */
  middleware: RequestHandler;
  stop(): Promise<void>;
}

/** The client's address as Express reads it (`req.ip`, with the app's `trust proxy`), for requests it never saw. */
export type ClientAddressOf = (req: IncomingMessage) => string | undefined;

/** Apollo over the shared services; CSRF prevention stays on (multipart needs Apollo-Require-Preflight). */
export async function createGraphQLDoor(
  services: Services,
  logger: Logger,
  clientAddressOf: ClientAddressOf,
): Promise<GraphQLDoor> {
  const schema = await buildGraphQLSchema();
  const server = new ApolloServer<GraphQLContext>({
    schema,
    formatError,
    includeStacktraceInErrorResponses: false,
    csrfPrevention: true,
    introspection: true,
    // The limits (query-limits.ts) are checked by the admission below, before the standard rules run.
    plugins: [
      // No cache hints are given (answers are per caller, D23); the default plugin would still time every field.
      ApolloServerPluginCacheControlDisabled(),
      budgetPlugin(services.rateLimits),
      {
        async requestDidStart() {
          return {
            async didEncounterErrors({ contextValue, errors }) {
              for (const error of errors.filter((e) => isUnexpected(e.originalError ?? e) && !e.extensions?.code)) {
                logger.error(
                  { request_id: contextValue.ctx.requestId, err: error.originalError ?? error },
                  'graphql error',
                );
              }
            },
          };
        },
      },
    ],
  });
  await server.start();
  const admission = new DocumentAdmission(schema, LIMITS);
  const polledServices: Record<PolledField, { polled(id: string, reads: PolledRead['reads']): PolledRead }> = {
    order: services.orders,
    interpretationBooking: services.bookings,
  };
  const contextOf = async (req: GraphQLHttpRequest, params: Record<string, unknown>): Promise<GraphQLContext> => {
    const { authorization } = req.headers;
    const { query, operationName, variables } = params;
    const clientAddress = clientAddressOf(req);
    let budget: string | null;
    let polled: { poll: PolledFieldRequest; answer?: PolledAnswer | null } | undefined;
    try {
      // A caller with nothing left is refused before its key is looked up or its document parsed.
      services.rateLimits.ensureCredentialLeft(authorization);
      // A poll (D23) is seen in a document read before: its answer is then read with the key, in one statement.
      const poll = polledFieldOf(admission.peek(query, operationName), variables);
      const resolved = await services.authentication.resolvePolling(
        req.ctx.em,
        authorization,
        poll && polledServices[poll.field].polled(poll.id, 'answer'),
      );
      req.ctx.actor = resolved.actor;
      polled = poll && { poll, answer: resolved.answer };
      budget = budgetOf(req.ctx, clientAddress);
      if (budget && authorization && req.ctx.actor) services.rateLimits.remember(authorization, budget);
      if (budget) services.rateLimits.ensureLeft(budget);
    } catch (error) {
      if (error instanceof TooManyAttemptsError) throw rateLimited(error.state);
      // Apollo answers a failed context 500 without telling its plugins' request hooks: logged here, with its id.
      if (isUnexpected(error)) logger.error({ request_id: req.ctx.requestId, err: error }, 'graphql context failed');
      throw error;
    }
    // D36: the document is read here, before Apollo validates it, and a refusal is charged before it is answered.
    const admitted = admission.admit(query, operationName, variables);
    if (admitted.kind === 'too_large')
      throw await chargedRefusal(services.rateLimits, budget, documentTooLarge(admitted.bytes));
    if (admitted.kind === 'read' && admitted.refusals.length > 0)
      throw await chargedRefusal(services.rateLimits, budget, admitted.refusals[0], admitted.cost);
    return {
      ctx: req.ctx,
      services,
      loaders: createLoaders(req.ctx, services),
      budget,
      requestedCost: admitted.kind === 'read' ? admitted.cost : undefined,
      clientAddress: clientAddress ?? 'unknown',
      polledAnswer: (field, id) => (polled?.poll.field === field && polled.poll.id === id ? polled.answer : undefined),
    };
  };
  const answers = new WeakMap<IncomingMessage, Promise<void>>();
  const answer = (req: GraphQLHttpRequest, res: ServerResponse): Promise<void> => {
    let answering = answers.get(req);
    if (!answering) {
      const { http, params } = httpRequestOf(req);
      answering = server
        .executeHTTPGraphQLRequest({ httpGraphQLRequest: http, context: () => contextOf(req, params) })
        .then((answered) => writeAnswer(answered, res));
      answers.set(req, answering);
    }
    return answering;
  };
  return {
    answer,
    middleware: (req, res, next) => void answer(req, res).catch(next),
    stop: () => server.stop(),
  };
}

/** A partner credential spends its budget, shared with REST (D24, D27); no key spends the address's, as the catalog. */
function budgetOf({ actor }: Ctx, clientAddress: string | undefined): string | null {
  if (!actor) return addressBucket(clientAddress);
  return actor.kind === 'account' ? partnerBucket(actor) : null;
}
