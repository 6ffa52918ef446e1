import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { StaffUser } from '../identity/staff-user.entity';
import { newId } from '../shared/ids';

/**
 * An internal note of staff, never shown to the client (D19 on orders, D28 on bookings): what both desks' notes are.
 * Each desk's entity adds the row it is written on and its own table.
 */
// The GraphQL schema shows only the types its operations reach: StaffNote's fields appear on OrderNote and
// InterpretationBookingNote alone.
@ObjectType()
@Entity({ abstract: true })
export abstract class StaffNote {
  [OptionalProps]?: 'createdAt';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

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
