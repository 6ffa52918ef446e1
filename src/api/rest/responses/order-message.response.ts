import { z } from 'zod';
import { MessageAuthorKind } from '../../../domain/orders/order-message.entity';
import { Id, Timestamp } from './base.response';
import { component, documented } from './response-registry';

/** A message of an order's conversation with the operator's desk (D30). */
export const OrderMessage = component(
  'OrderMessage',
  z.strictObject({
    id: Id.describe('The message id.'),
    author: documented(
      z.strictObject({
        kind: documented(
          z.enum(MessageAuthorKind),
          '`client`: written through this API or the portal; `staff`: written by the operator.',
        ),
        name: documented(
          z.string(),
          'The member who wrote it (or the account, for its API key), or the staff member, by name.',
        ),
      }),
      'Who wrote it, as they were named then.',
    ),
    text: documented(z.string().max(4000), 'The message, as written (plain text).'),
    created_at: Timestamp.describe('When it was written (UTC).'),
  }),
);

export type OrderMessageJson = z.output<typeof OrderMessage>;
