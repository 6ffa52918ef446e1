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
import { Field, ID, ObjectType } from 'type-graphql';
import { Account } from '../identity/account.entity';
import { Payment } from '../payments/payment.entity';
import { PricedWork } from '../quotes/priced-work';
import { Quote } from '../quotes/quote.entity';
import { newId } from '../shared/ids';
import { StaffUser } from '../identity/staff-user.entity';

export enum OrderStatus {
  PENDING_PAYMENT = 'pending_payment',
  PROCESSING = 'processing',
  IN_REVIEW = 'in_review',
  COMPLETED = 'completed',
  ON_HOLD = 'on_hold',
  CANCELLED = 'cancelled',
}

/** A converted quote: its prices, its files (as attachments) and its payment. Status changes go through order.states.ts. */
@ObjectType()
@Entity({ tableName: 'orders' })
// Lists at scale (docs/architecture.md): each list's filters and sort with its tie-break, the open work, the desk's search.
@Index({ name: 'orders_account_created', properties: ['account', 'createdAt', 'id'] })
@Index({ name: 'orders_account_status_created', properties: ['account', 'status', 'createdAt', 'id'] })
@Index({ name: 'orders_account_updated', properties: ['account', 'updatedAt', 'id'] })
@Index({ name: 'orders_status_due', properties: ['status', 'dueAt', 'createdAt', 'id'] })
@Index({ name: 'orders_due', properties: ['dueAt', 'createdAt', 'id'] })
@Index({
  name: 'orders_open_due',
  expression: `create index "orders_open_due" on "orders" ("due_at", "created_at", "id") where "status" not in ('completed', 'cancelled')`,
})
@Index({
  name: 'orders_awaiting_translator_due',
  expression: `create index "orders_awaiting_translator_due" on "orders" ("due_at", "created_at", "id") where "awaiting_translator"`,
})
// D30: one open revision of an order at a time (checked under the original's lock; this is the database's word).
@Index({
  name: 'orders_one_open_revision',
  expression: `create unique index "orders_one_open_revision" on "orders" ("revision_of_id") where "status" not in ('completed', 'cancelled')`,
})
@Index({
  name: 'orders_number_trgm',
  expression: `create index "orders_number_trgm" on "orders" using gin ("number" gin_trgm_ops)`,
})
@Index({
  name: 'orders_reference_trgm',
  expression: `create index "orders_reference_trgm" on "orders" using gin ("reference" gin_trgm_ops)`,
})
// The daily deletion of documents walks the orders that fall due, earliest first (D33).
@Index({
  name: 'orders_documents_expiry',
  expression: `create index "orders_documents_expiry" on "orders" ("documents_expire_at", "id") where "documents_expire_at" is not null`,
})
export class Order extends PricedWork {
  /** Defaulted here or by the database: `em.create` need not name them. */
  [OptionalProps]?: 'awaitingTranslator' | 'createdAt' | 'legalHold' | 'legalHoldByStaff' | 'status' | 'updatedAt';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Field({
    description:
      'The order number: a prefix, the year and month, and 6 uppercase letters or digits, e.g. LT-2611-AB12CD.',
  })
  @Property({ type: 'string', length: 30, unique: true })
  number!: string;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Rel<Account>;

  /** The quote it was made from; a revision (D30) is made from its original's quote too. */
  @ManyToOne(() => Quote, { deleteRule: 'restrict', index: true })
  quote!: Rel<Quote>;

  @OneToOne(() => Payment, { owner: true, unique: true, eager: true })
  payment!: Rel<Payment>;

  @Field(() => OrderStatus)
  @Enum({ items: () => OrderStatus })
  status: OrderStatus = OrderStatus.PENDING_PAYMENT;

  /** The state a hold interrupted; releasing returns there (D10). */
  @Enum({ items: () => OrderStatus, nullable: true })
  heldFrom: OrderStatus | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 500, nullable: true })
  holdReason: string | null = null;

  /**
   * A certified order with a source the engine cannot read (a scan, a photo, no text layer): a person translates it
   * (D30), and the order waits in the translators' queue while it is processing and such a source has no translation.
   */
  @Property({ type: 'boolean', default: false })
  awaitingTranslator: boolean = false;

  /** The reviewer staff assigned the order to (D19). */
  @Index()
  @ManyToOne(() => StaffUser, { nullable: true, deleteRule: 'set null' })
  assignee: Rel<StaffUser> | null = null;

  @Field(() => Date, {
    nullable: true,
    description: 'Rush: payment + 2 hours; otherwise payment + the configured turnaround.',
  })
  @Property({ type: 'datetime', nullable: true })
  dueAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  completedAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  cancelledAt: Date | null = null;

  /** The completed order this one revises, free of charge (D30); null for an order converted from a quote. */
  @Index()
  @ManyToOne(() => Order, { nullable: true, deleteRule: 'set null' })
  revisionOf: Rel<Order> | null = null;

  /**
   * For a revision: when the work it revises was first delivered, from which its free-revision window runs (D30); a
   * chain of revisions never restarts it. Null for an order converted from a quote: its own completion starts it.
   */
  @Property({ type: 'datetime', nullable: true })
  revisionWindowFrom: Date | null = null;

  @Field(() => String, { nullable: true, description: 'For a revision: what the client asked to have revised.' })
  @Property({ type: 'text', nullable: true })
  revisionReason: string | null = null;

  @Field({ description: "Under a legal hold the order's documents are kept whatever the retention period." })
  @Property({ type: 'boolean', default: false })
  legalHold: boolean = false;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 500, nullable: true })
  legalHoldReason: string | null = null;

  @Field({ description: 'Whether the desk placed the legal hold: only staff then change or release it.' })
  @Property({ type: 'boolean', default: false })
  legalHoldByStaff: boolean = false;

  /**
   * When the daily deletion takes the order's documents (D33): completion or cancellation plus the account's
   * retention period. Null while the order is open, held, kept for ever, or once its documents were deleted.
   */
  @Property({ type: 'datetime', nullable: true })
  documentsExpireAt: Date | null = null;

  @Field(() => Date, { nullable: true, description: "When the order's documents were deleted (D33)." })
  @Property({ type: 'datetime', nullable: true })
  documentsDeletedAt: Date | null = null;

  /** Hard copies handed to a carrier (D22): all three are set together by staff. */
  @Property({ type: 'string', length: 100, nullable: true })
  shipmentCarrier: string | null = null;

  @Property({ type: 'string', length: 100, nullable: true })
  shipmentTrackingNumber: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  shippedAt: Date | null = null;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field()
  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
