import { Client, cacheExchange, fetchExchange, mapExchange } from 'urql';
import type { SessionStore } from './session';

/**
 * The one GraphQL client of an application: every request goes to this service's `/graphql` with the session's
 * bearer token. `Apollo-Require-Preflight` lets multipart uploads (a translation from a file picker) past Apollo's
 * CSRF guard. A screen shows fresh data at once from the cache and then from the network; an answer that says the
 * session has ended (UNAUTHENTICATED) signs the tab out.
 */
export function graphqlClient(session: SessionStore, onSessionEnded: () => void): Client {
  return new Client({
    url: '/graphql',
    requestPolicy: 'cache-and-network',
    exchanges: [
      cacheExchange,
      mapExchange({
        onError(error) {
          if (error.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED')) onSessionEnded();
        },
      }),
      fetchExchange,
    ],
    fetchOptions: () => {
      const token = session.token();
      return {
        headers: { 'Apollo-Require-Preflight': 'true', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      };
    },
  });
}
