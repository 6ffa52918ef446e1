import { Entity, OneToOne, OptionalProps, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Order } from '../orders/order.entity';

/**
 * A completion under way (D20): committed with the order locked before anything is stamped, drawn, signed or
 * stored, and deleted in the transaction that completes the order, or by the completion's own compensation. One
 * per order, so a second completion meanwhile is refused. Its code is the one the certificate will print.
 */
@Entity({ tableName: 'pending_certificates' })
export class PendingCertificate {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?: 'startedAt';

  @PrimaryKey({ type: 'string', length: 19 })
  code!: string;

  @OneToOne(() => Order, { owner: true, unique: true, deleteRule: 'cascade' })
  order!: Rel<Order>;

  /** The process doing the work (ProcessClaim, D25): once it is dead, another completion takes the intent over. */
  @Property({ type: 'integer' })
  processId!: number;

  @Property({ type: 'datetime' })
  startedAt: Date = new Date();
}
