import { Check, DeferMode, Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { newId } from '../shared/ids';

/** A payment's own states (D26); payment.states.ts says which moves are allowed. */
export enum PaymentStatus {
  /** A checkout exists; the customer has not paid. */
  CREATED = 'created',
  /** A capture was asked of the provider and its answer is not applied yet: cancelling waits. */
  CAPTURING = 'capturing',
  CAPTURED = 'captured',
  /** A refund is owed: recorded before the provider is asked, so a crash or an outage cannot lose it. */
  REFUNDING = 'refunding',
  REFUNDED = 'refunded',
  /** The provider refused the refund for good (time limit, dispute, account restricted): staff must settle it by hand. */
  REFUND_REFUSED = 'refund_refused',
  /** The checkout was withdrawn before payment (the order or booking was cancelled). */
  VOIDED = 'voided',
}

/** What a payment pays for: an order or a booking, named by its id. */
export type PaymentOwner = { type: 'order' | 'booking'; id: string };

/** The provider of a payment with nothing to pay, a free revision's (docs/decisions.md, D30): no money moves. */
export const NO_PROVIDER = 'none';

/**
 * One checkout at a payment provider for an order or a booking. The contract's `payment` object is
 * read from here; the provider's ids make the return path and webhooks find it.
 */
@ObjectType()
@Entity({ tableName: 'payments' })
@Index({ properties: ['status', 'inFlightSince'] })
@Index({ properties: ['captureId'] })
// D31: the work on account not yet invoiced, which the credit check and the monthly close read.
@Index({
  name: 'payments_on_account_uninvoiced',
  expression: `create index "payments_on_account_uninvoiced" on "payments" ("paid_at") where "provider" = 'account' and "invoice_id" is null`,
})
@Check({
  name: 'payments_refunded_within_captured_check',
  expression: '"refunded_cents" >= 0 and "refunded_cents" <= "captured_cents"',
})
@Check({
  name: 'payments_refund_pending_check',
  expression: '"refund_pending_cents" >= 0 and "refund_pending_cents" <= "captured_cents"',
})
@Check({ name: 'payments_one_owner_check', expression: 'num_nonnulls("order_id", "booking_id") = 1' })
export class Payment {
  /** What a new payment may leave out: its defaults, and `owner`, which is its order's or booking's key. */
  [OptionalProps]?:
    'capturedCents' | 'refundedCents' | 'refundPendingCents' | 'status' | 'createdAt' | 'updatedAt' | 'owner';

  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  /**
   * What it pays for, set with its checkout and never changed: exactly one of an order or a booking (the check above).
   * A renewed checkout's old payment keeps its owner, whose `payment` is then the new one (D29). The keys are checked
   * at commit: an order and its first payment point at each other and are written in one transaction.
   */
  @ManyToOne({
    entity: 'Order',
    mapToPk: true,
    fieldName: 'order_id',
    nullable: true,
    deleteRule: 'cascade',
    deferMode: DeferMode.INITIALLY_DEFERRED,
  })
  orderId: string | null = null;

  @ManyToOne({
    entity: 'Booking',
    mapToPk: true,
    fieldName: 'booking_id',
    nullable: true,
    deleteRule: 'cascade',
    deferMode: DeferMode.INITIALLY_DEFERRED,
  })
  bookingId: string | null = null;

  /** Work on account (D31): the invoice it was billed on; null until the month closes (or after its invoice was voided). */
  @ManyToOne({ entity: 'Invoice', mapToPk: true, fieldName: 'invoice_id', nullable: true, deleteRule: 'set null' })
  invoiceId: string | null = null;

  @Field({ description: 'The payment provider: sandbox or paypal, or account for work placed on account.' })
  @Property({ type: 'string', length: 20 })
  provider!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 100, nullable: true, unique: true })
  providerOrderId: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 2048, nullable: true })
  approvalUrl: string | null = null;

  @Enum({ items: () => PaymentStatus })
  status: PaymentStatus = PaymentStatus.CREATED;

  /** What the payer is told they pay for, for example "Translation order LT-2611-AB12CD". */
  @Property({ type: 'string', length: 255 })
  description!: string;

  @Property({ type: 'integer' })
  amountCents!: number;

  @Property({ type: 'string', length: 3 })
  currency!: string;

  /** The provider's capture, needed to refund. */
  @Property({ type: 'string', length: 100, nullable: true })
  captureId: string | null = null;

  /** Where the customer goes after the checkout (D9), if the client gave one. */
  @Property({ type: 'string', length: 2048, nullable: true })
  redirectUrl: string | null = null;

  /**
   * Money taken by the provider; with `refundedCents` it reconciles every payment: captured = kept + refunded,
   * in cents, refunds in part included (`payment-refund.entity.ts` has each refund).
   */
  @Property({ type: 'integer' })
  capturedCents = 0;

  @Field(() => Int, {
    description: 'Of what was captured, what went back to the payer so far, refunds in part included.',
  })
  @Property({ type: 'integer' })
  refundedCents = 0;

  /**
   * Refunds staff asked of the provider whose answers are not applied yet (`staff-refund.entity.ts`, D30): held back
   * from what may still be refunded, so refunds at once never ask for more than was captured.
   */
  @Property({ type: 'integer' })
  refundPendingCents = 0;

  /** Why the provider refused the refund for good (`refund_refused`), in its own words. */
  @Property({ type: 'text', nullable: true })
  refundRefusal: string | null = null;

  /** When the provider call of the current `capturing` or `refunding` step went out; null when none is in flight. */
  @Property({ type: 'datetime', nullable: true })
  inFlightSince: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  paidAt: Date | null = null;

  @Field(() => Date, {
    nullable: true,
    description:
      'When the last of the captured money went back to the payer; null while any is kept (a refund in part).',
  })
  @Property({ type: 'datetime', nullable: true })
  refundedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  get owner(): PaymentOwner {
    return this.orderId ? { type: 'order', id: this.orderId } : { type: 'booking', id: this.bookingId! };
  }

  set owner(owner: PaymentOwner) {
    this.orderId = owner.type === 'order' ? owner.id : null;
    this.bookingId = owner.type === 'booking' ? owner.id : null;
  }
}
