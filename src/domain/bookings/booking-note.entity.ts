import { Entity, Index, ManyToOne, type Rel } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { StaffNote } from '../desk/staff-note.entity';
import { Booking } from './booking.entity';

/** D28: an internal note of staff on a booking, as on an order (D19); never shown to the client. */
@ObjectType('InterpretationBookingNote')
@Entity({ tableName: 'booking_notes' })
@Index({ properties: ['booking', 'createdAt'] })
export class BookingNote extends StaffNote {
  @ManyToOne(() => Booking, { deleteRule: 'cascade' })
  booking!: Rel<Booking>;
}
