import { Entity, Index, ManyToOne, type Rel } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { StaffNote } from '../desk/staff-note.entity';
import { Order } from './order.entity';

/** D19: an internal note of staff on an order; never shown to the client. */
@ObjectType()
@Entity({ tableName: 'order_notes' })
@Index({ properties: ['order', 'createdAt'] })
export class OrderNote extends StaffNote {
  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order!: Rel<Order>;
}
