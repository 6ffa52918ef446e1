import { dataOf, described, json, nullable, object, ref, responseRef } from './components';
import { exampleAccount } from './examples';

export const accountSchemas = {
  Account: object({
    id: described(ref('Id'), 'The account id.'),
    name: { type: 'string', description: "The client's name as the operator registered it (a law firm, a platform)." },
    email: {
      type: 'string',
      format: 'email',
      description: 'Where the operator sends API keys, receipts and order notices.',
    },
    status: {
      enum: ['approved'],
      description:
        'Always `approved` here: a pending or suspended account cannot call the API (its key answers 403), so it never sees this answer.',
    },
    api_key_last4: nullable(
      { type: 'string', minLength: 4, maxLength: 4 },
      'Last four characters of the current API key, to tell keys apart; the key itself is never shown again.',
    ),
    api_key_issued_at: nullable(ref('Timestamp'), 'When the current key was issued (UTC).'),
    approved_at: nullable(ref('Timestamp'), 'When the operator last approved the account (UTC).'),
    retention_days: nullable(
      { type: 'integer', minimum: 1, maximum: 3650 },
      "How many days an order's documents are kept after it is completed or cancelled, then deleted (90 unless an admin member changed it with GraphQL `setRetention`); null keeps them. `DELETE /orders/{id}/documents` deletes them sooner.",
    ),
    created_at: described(ref('Timestamp'), 'When the account was created (UTC).'),
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
        200: json(dataOf(ref('Account'), 'The account the key belongs to.'), 'The account.', { data: exampleAccount }),
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
      },
    },
  },
};
