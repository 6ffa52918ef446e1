import { z } from 'zod';
import { AccountStatus } from '../../../domain/identity/account.entity';
import { Id, Timestamp } from './base.response';
import { component, documented } from './response-registry';

/** The calling account as `GET /me` shows it (D13): the key itself never appears, only its last four characters. */
export const Account = component(
  'Account',
  z.strictObject({
    id: Id.describe('The account id.'),
    name: documented(z.string(), "The client's name as the operator registered it (a law firm, a platform)."),
    email: documented(
      z.string().meta({ format: 'email' }),
      'Where the operator sends API keys, receipts and order notices.',
    ),
    status: documented(
      z.literal(AccountStatus.APPROVED),
      'Always `approved` here: a pending or suspended account cannot call the API (its key answers 403), so it never sees this answer.',
    ),
    api_key_last4: documented(
      z.string().length(4).nullable(),
      'Last four characters of the current API key, to tell keys apart; the key itself is never shown again.',
    ),
    api_key_issued_at: documented(Timestamp.nullable(), 'When the current key was issued (UTC).'),
    approved_at: documented(Timestamp.nullable(), 'When the operator last approved the account (UTC).'),
    retention_days: documented(
      z.number().int().min(1).max(3650).nullable(),
      "How many days an order's documents are kept after it is completed or cancelled, then deleted (90 unless an admin member changed it with GraphQL `setRetention`); null keeps them. `DELETE /orders/{id}/documents` deletes them sooner.",
    ),
    created_at: Timestamp.describe('When the account was created (UTC).'),
  }),
);

export type AccountJson = z.output<typeof Account>;
