import { Entity, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { newId } from '../shared/ids';
import { StaffUser } from '../staff/staff-user.entity';
import { Order } from './order.entity';

/** D19: an internal note of staff on an order; never shown to the client. */
@ObjectType()
@Entity({ tableName: 'order_notes' })
@Index({ properties: ['order', 'createdAt'] })
export class OrderNote {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order!: Rel<Order>;

  @Field(() => StaffUser)
  @ManyToOne(() => StaffUser, { deleteRule: 'restrict', eager: true })
  author!: Rel<StaffUser>;

  @Field()
  @Property({ type: 'text' })
  text!: string;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
