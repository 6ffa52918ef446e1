import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * How many orders an account has in a status, so a list's exact total (D3) is read, not counted: `count(*)` of an
 * integrator's 20,000 orders cost more than the page itself. Triggers on `orders` add each change as a row of
 * `OrderCountChange` in the changing transaction; the fold (`src/domain/orders/order-counts.queries.ts`) adds them up here.
 * Neither is written by the application.
 */
@Entity({ tableName: 'order_counts' })
export class OrderCount {
  @PrimaryKey({ type: 'uuid' })
  accountId!: string;

  @PrimaryKey({ type: 'text' })
  status!: string;

  @Property({ type: 'integer' })
  n!: number;
}

/** A change to `OrderCount` not folded in yet: inserted only, so concurrent writers never wait for each other. */
@Entity({ tableName: 'order_count_changes' })
@Index({ properties: ['accountId', 'status'] })
export class OrderCountChange {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'uuid' })
  accountId!: string;

  @Property({ type: 'text' })
  status!: string;

  @Property({ type: 'integer' })
  delta!: number;
}
