import {
  Entity,
  Enum,
  Index,
  ManyToOne,
  OneToOne,
  OptionalProps,
  PrimaryKey,
  Property,
  type Rel,
} from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Account } from '../identity/account.entity';
import { InterpretationMode } from '../catalog/catalog.enums';
import { Payment } from '../payments/payment.entity';
import { Interpreter } from './interpreter.entity';
import { PlacedBy } from '../identity/placed-by';
import { newId } from '../shared/ids';

export enum BookingStatus {
  REQUESTED = 'requested',
  AWAITING_PAYMENT = 'awaiting_payment',
  CONFIRMED = 'confirmed',
  COMPLETED = 'completed',
  ON_HOLD = 'on_hold',
  CANCELLED = 'cancelled',
}

export enum BookingSetting {
  DEPOSITION = 'deposition',
  COURT = 'court',
  ARBITRATION = 'arbitration',
  MEETING = 'meeting',
  CONFERENCE = 'conference',
  OTHER = 'other',
}

/** Hours are stored in hundredths. */
export const hoursOf = (hundredths: number): number => hundredths / 100;

/**
 * An interpreter booking (the OpenAPI `Booking` schema; D12). Hours are kept in hundredths (integers), so 2.25 hours bill
 * exactly; the rate is copied at creation. The payment exists once staff confirm an interpreter.
 */
@ObjectType('InterpretationBooking')
@Entity({ tableName: 'interpretation_bookings' })
@Index({ name: 'interpretation_bookings_account_created', properties: ['account', 'createdAt', 'id'] })
@Index({ name: 'interpretation_bookings_account_status_created', properties: ['account', 'status', 'createdAt', 'id'] })
@Index({ name: 'interpretation_bookings_account_updated', properties: ['account', 'updatedAt', 'id'] })
// The booking desk's list (D28): soonest first, tie-break included, by status, for one account or a window of start
// times; its search by trigrams (src/domain/bookings/staff-booking-queue.queries.ts).
@Index({ name: 'interpretation_bookings_status_scheduled', properties: ['status', 'scheduledAt', 'id'] })
@Index({ name: 'interpretation_bookings_account_scheduled', properties: ['account', 'scheduledAt', 'id'] })
@Index({ properties: ['scheduledAt', 'id'] })
// An interpreter's bookings that hold their time (D32), by start: the overlap check and the interpreters' search probe
// it for one interpreter and a window of starts, however many years of bookings there are.
@Index({
  name: 'interpretation_bookings_interpreter_busy',
  expression: `create index "interpretation_bookings_interpreter_busy" on "interpretation_bookings" ("interpreter_id", "scheduled_at") where "status" in ('confirmed', 'awaiting_payment')`,
})
@Index({
  name: 'interpretation_bookings_number_trgm',
  expression: `create index "interpretation_bookings_number_trgm" on "interpretation_bookings" using gin ("number" gin_trgm_ops)`,
})
@Index({
  name: 'interpretation_bookings_reference_trgm',
  expression: `create index "interpretation_bookings_reference_trgm" on "interpretation_bookings" using gin ("reference" gin_trgm_ops)`,
})
export class Booking {
  /** Defaulted here or by the database: `em.create` need not name them. */
  [OptionalProps]?: 'billableHours' | 'createdAt' | 'status' | 'updatedAt';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Field({
    description:
      'The booking number: a prefix, INT, the year and month, and 6 uppercase letters or digits, e.g. LT-INT-2611-AB12CD.',
  })
  @Property({ type: 'string', length: 40, unique: true })
  number!: string;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Rel<Account>;

  @Field(() => BookingStatus)
  @Enum({ items: () => BookingStatus })
  status: BookingStatus = BookingStatus.REQUESTED;

  @Enum({ items: () => BookingStatus, nullable: true })
  heldFrom: BookingStatus | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 500, nullable: true })
  holdReason: string | null = null;

  @Field()
  @Property({ type: 'string', length: 20 })
  sourceLanguage!: string;

  @Field()
  @Property({ type: 'string', length: 20 })
  targetLanguage!: string;

  @Field(() => InterpretationMode)
  @Enum({ items: () => InterpretationMode })
  mode!: InterpretationMode;

  @Field(() => BookingSetting)
  @Enum({ items: () => BookingSetting })
  setting: BookingSetting = BookingSetting.OTHER;

  @Field()
  @Property({ type: 'datetime' })
  scheduledAt!: Date;

  /** The UTC offset `scheduled_at` was written with, in minutes: e-mails and pages show the time as the client gave it (D29). */
  @Field(() => Int, {
    description:
      'The UTC offset, in minutes east of UTC, the start was written with (-300 for UTC-05:00): its time as the client gave it.',
  })
  @Property({ type: 'smallint' })
  scheduledOffsetMinutes = 0;

  @Property({ type: 'integer' })
  durationHundredths!: number;

  @Property({ type: 'integer' })
  billableHundredths!: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  unitPriceCents!: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  totalCents!: number;

  @Field()
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 500, nullable: true })
  location: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  videoPlatformNotes: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  reference: string | null = null;

  /** Where the payer goes back after the checkout staff create later (D9), if the client gave one. */
  @Property({ type: 'string', length: 2048, nullable: true })
  redirectUrl: string | null = null;

  @Field(() => String, { nullable: true, description: 'Set when staff confirm availability.' })
  @Property({ type: 'string', length: 255, nullable: true })
  interpreterName: string | null = null;

  /** The interpreter on record confirmed for it (D32); `interpreterName` repeats the name for the contract's field. */
  @ManyToOne(() => Interpreter, { nullable: true, eager: true, deleteRule: 'set null' })
  interpreter: Rel<Interpreter> | null = null;

  @OneToOne(() => Payment, { owner: true, unique: true, nullable: true, eager: true })
  payment: Rel<Payment> | null = null;

  /** The hours the session really took, recorded at completion (D32). */
  @Property({ type: 'integer', nullable: true })
  actualHundredths: number | null = null;

  /** The actual hours, rounded up to the half hour, past the billable ones, and their price at the booking's rate (D32). */
  @Property({ type: 'integer', nullable: true })
  overtimeHundredths: number | null = null;

  @Property({ type: 'integer', nullable: true })
  overtimeCents: number | null = null;

  /** The checkout of the overtime, beside the booking's own payment (D32). */
  @OneToOne(() => Payment, { owner: true, unique: true, nullable: true, eager: true })
  overtimePayment: Rel<Payment> | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  completedAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  cancelledAt: Date | null = null;

  @Field(() => PlacedBy, { description: 'Who made it: the API key or a member, as they were then (D27).' })
  @Property({ type: 'json' })
  placedBy!: PlacedBy;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field()
  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  get billableHours(): number {
    return hoursOf(this.billableHundredths);
  }

  /** The start has passed: an unpaid booking can no longer be confirmed or paid, a confirmed one can be completed (D29). */
  hasStarted(now = new Date()): boolean {
    return this.scheduledAt.getTime() <= now.getTime();
  }
}
