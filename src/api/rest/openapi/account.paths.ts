import { dataOf, json, nullable, object, ref, responseRef } from './components';

export const accountSchemas = {
  Account: object({
    id: ref('Id'),
    name: { type: 'string' },
    email: { type: 'string', format: 'email' },
    status: { enum: ['approved'], description: 'Only an approved account can call the API.' },
    api_key_last4: nullable({ type: 'string', minLength: 4, maxLength: 4 }),
    api_key_issued_at: nullable(ref('Timestamp')),
    approved_at: nullable(ref('Timestamp')),
    created_at: ref('Timestamp'),
  }),
};

export const accountPaths = {
  '/me': {
    get: {
      operationId: 'getMe',
      tags: ['Account'],
      summary: 'The calling account',
      description: 'Which account the key belongs to. Useful to check a key; the key itself is never shown.',
      responses: {
        200: json(dataOf(ref('Account')), 'The account.'),
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
      },
    },
  },
};
