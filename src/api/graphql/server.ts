import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import type { RequestHandler } from 'express';
import type { Logger } from '../http/logger';
import type { Services } from '../../services';
import { createLoaders, type GraphQLContext } from './context';
import { formatError, isUnexpected } from './format-error';
import { queryLimits } from './query-limits';
import { buildGraphQLSchema } from './schema';

const LIMITS = { maxDepth: 10, maxFields: 500 };

export interface GraphQLDoor {
  middleware: RequestHandler;
  stop(): Promise<void>;
}

/** Apollo over the shared services; CSRF prevention stays on (multipart needs Apollo-Require-Preflight). */
export async function createGraphQLDoor(services: Services, logger: Logger): Promise<GraphQLDoor> {
  const server = new ApolloServer<GraphQLContext>({
    schema: await buildGraphQLSchema(),
    formatError,
    includeStacktraceInErrorResponses: false,
    csrfPrevention: true,
    introspection: true,
    validationRules: [queryLimits(LIMITS)],
    plugins: [
      {
        async requestDidStart() {
          return {
            async didEncounterErrors({ contextValue, errors }) {
              for (const error of errors.filter((e) => isUnexpected(e.originalError ?? e) && !e.extensions?.code)) {
                logger.error({ request_id: contextValue.ctx.requestId, err: error.originalError ?? error }, 'graphql error');
              }
            },
          };
        },
      },
    ],
  });
  await server.start();
  const middleware = expressMiddleware(server, {
    context: async ({ req }) => {
      req.ctx.actor = await services.authentication.resolve(req.ctx.em, req.get('authorization'));
      return { ctx: req.ctx, services, loaders: createLoaders(req.ctx, services) };
    },
  });
  return { middleware, stop: () => server.stop() };
}
