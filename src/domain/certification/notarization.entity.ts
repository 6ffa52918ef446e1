import { Entity, ManyToOne, OneToOne, OptionalProps, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { StoredFile } from '../files/file.entity';
import { newId } from '../shared/ids';
import { StaffUser } from '../identity/staff-user.entity';
import { Order } from '../orders/order.entity';

/** D21: the notarization of a certified order, recorded by staff before completion; one per order. */
@ObjectType()
@Entity({ tableName: 'notarizations' })
export class Notarization {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?: 'recordedAt' | 'scan';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @OneToOne(() => Order, { owner: true, unique: true, deleteRule: 'cascade' })
  order!: Rel<Order>;

  @Field()
  @Property({ type: 'string', length: 255 })
  notaryName!: string;

  @Field()
  @Property({ type: 'string', length: 100 })
  commissionNumber!: string;

  @Field({ description: 'Where the notary is commissioned, e.g. "State of New York, County of Kings".' })
  @Property({ type: 'string', length: 255 })
  jurisdiction!: string;

  @Field({ description: 'YYYY-MM-DD.' })
  @Property({ type: 'date' })
  commissionExpiresOn!: string;

  @Field()
  @Property({ type: 'datetime' })
  notarizedAt!: Date;

  @Field(() => StaffUser)
  @ManyToOne(() => StaffUser, { deleteRule: 'restrict', eager: true })
  recordedBy!: Rel<StaffUser>;

  @Field()
  @Property({ type: 'datetime' })
  recordedAt: Date = new Date();

  /** The notarized scan, an order file of type `certificate`, when one was uploaded. */
  @ManyToOne(() => StoredFile, { nullable: true, deleteRule: 'restrict' })
  scan: Rel<StoredFile> | null = null;
}
