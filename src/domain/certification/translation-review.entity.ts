import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { StaffUser } from '../identity/staff-user.entity';
import { Order } from '../orders/order.entity';

export enum ReviewKind {
  /** The machine translation was read and kept as it is. */
  APPROVED = 'approved',
  /** The machine translation was replaced by a reviewed upload. */
  REPLACED = 'replaced',
}

/** D19: who reviewed one translation of a certified order, how, and when. One row per translation file. */
@ObjectType()
@Entity({ tableName: 'translation_reviews' })
export class TranslationReview {
  @Field(() => ID, { description: 'The reviewed translation file.' })
  @PrimaryKey({ type: 'uuid' })
  fileId!: string;

  @Index()
  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order!: Rel<Order>;

  @Field(() => StaffUser)
  @ManyToOne(() => StaffUser, { deleteRule: 'restrict', eager: true })
  reviewer!: Rel<StaffUser>;

  @Field(() => ReviewKind)
  @Enum({ items: () => ReviewKind })
  kind!: ReviewKind;

  @Field()
  @Property({ type: 'datetime' })
  reviewedAt: Date = new Date();
}
