import type { OrderMessage } from './order-message.entity';
import type { Order, OrderStatus } from './order.entity';

/**
 * What people did on an order that its lifecycle's events do not carry, raised in the transaction that did it
 * (docs/architecture.md "Domain events", D30): a message of its conversation from the client (`released`: the state
 * its answer resumed the order in, when the order was waiting for it) or from staff (`waitsForClient`: the order is now
 * on hold until the client answers), and a free revision asked for, the revision as it stands once made.
 */
export type OrderActivity =
  | { kind: 'client_wrote'; order: Order; message: OrderMessage; accountName: string; released: OrderStatus | null }
  | { kind: 'staff_wrote'; order: Order; message: OrderMessage; waitsForClient: boolean }
  | { kind: 'revision_requested'; original: Order; revision: Order; reason: string; referenceFiles: number };
