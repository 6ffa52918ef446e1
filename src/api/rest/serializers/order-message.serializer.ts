import type { OrderMessage } from '../../../domain/orders/order-message.entity';
import { formatTimestamp } from '../../format';
import type { OrderMessageJson } from '../responses/order-message.response';

/** A message of an order's conversation (D30), as `GET /orders/{id}/messages` lists it. */
export const serializeOrderMessage = (message: OrderMessage): OrderMessageJson => ({
  id: message.id,
  author: { kind: message.authorKind, name: message.authorName },
  text: message.text,
  created_at: formatTimestamp(message.createdAt),
});
