import { Entity, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { newId } from '../shared/ids';
import { StaffUser } from '../staff/staff-user.entity';
import { Booking } from './booking.entity';

/** D28: an internal note of staff on a booking, as on an order (D19); never shown to the client. */
@ObjectType('InterpretationBookingNote')
@Entity({ tableName: 'booking_notes' })
@Index({ properties: ['booking', 'createdAt'] })
export class BookingNote {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => Booking, { deleteRule: 'cascade' })
  booking!: Rel<Booking>;

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
