import { Entity, Enum, Index, ManyToOne, OneToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Account } from '../accounts/account.entity';
import { BillingUnit, ServiceType } from '../catalog/catalog.enums';
import { Payment } from '../payments/payment.entity';
import { Quote, QuotedAddon } from '../quotes/quote.entity';
import { newId } from '../shared/ids';

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
@Index({ properties: ['account', 'createdAt'] })
@Index({ properties: ['status', 'dueAt'] })
export class Order {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Field({ description: '<ORDER_PREFIX>-<YYMM>-<6 uppercase alphanumerics> (D10).' })
  @Property({ type: 'string', length: 30, unique: true })
  number!: string;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Rel<Account>;

  @OneToOne(() => Quote, { owner: true, unique: true, deleteRule: 'restrict' })
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

  @Field(() => ServiceType)
  @Enum({ items: () => ServiceType })
  serviceType!: ServiceType;

  @Field()
  @Property({ type: 'string', length: 20 })
  sourceLanguage!: string;

  @Field()
  @Property({ type: 'string', length: 20 })
  targetLanguage!: string;

  @Field(() => BillingUnit)
  @Enum({ items: () => BillingUnit })
  unitType!: BillingUnit;

  @Field(() => Int)
  @Property({ type: 'integer' })
  unitCount!: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  subtotalCents!: number;

  @Field(() => [QuotedAddon])
  @Property({ type: 'json' })
  addons: QuotedAddon[] = [];

  @Field(() => Int)
  @Property({ type: 'integer' })
  addonsTotalCents!: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  totalCents!: number;

  @Field()
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  reference: string | null = null;

  @Field(() => Date, { nullable: true, description: 'Rush: payment + 2 hours; otherwise payment + the configured turnaround.' })
  @Property({ type: 'datetime', nullable: true })
  dueAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  completedAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  cancelledAt: Date | null = null;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field()
  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
