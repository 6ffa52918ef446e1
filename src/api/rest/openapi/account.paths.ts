import { dataOf, json, ref, responseRef } from './components';
import { exampleAccount } from './examples';

export const accountPaths = {
  '/me': {
    get: {
      operationId: 'getMe',
      tags: ['Account'],
      summary: 'The calling account',
      description: 'Which account the key belongs to. Useful to check a key; the key itself is never shown.',
      responses: {
        200: json(dataOf(ref('Account'), 'The account the key belongs to.'), 'The account.', { data: exampleAccount }),
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
      },
    },
  },
};
