import { Check, Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Account } from '../identity/account.entity';
import { newId } from '../shared/ids';

export enum InvoiceStatus {
  OPEN = 'open',
  PAID = 'paid',
  VOID = 'void',
}

/** One order or booking placed on account, as the invoice prints it (D31). */
@ObjectType('InvoiceLine')
export class InvoiceLine {
  @Field({ description: 'order or booking.' }) kind!: 'order' | 'booking';
  @Field(() => ID) id!: string;
  @Field({ description: 'The order or booking number.' }) number!: string;
  @Field(() => String, { nullable: true }) reference!: string | null;
  @Field(() => String, { nullable: true }) purchaseOrder!: string | null;
  @Field() description!: string;
  @Field(() => Int) amountCents!: number;
}

/** Money given back on work already invoiced or on this invoice's own lines: a credit, never a changed line (D31). */
@ObjectType('InvoiceCredit')
export class InvoiceCredit {
  @Field({ description: 'The order or booking number the refund was for.' }) number!: string;
  @Field() description!: string;
  @Field(() => Int, { description: 'Positive: what is taken off the total.' }) amountCents!: number;
}

/**
 * A terms account's invoice (D31): the on-account work placed since the last one, with credits for refunds, issued
 * once and never changed but for its payments and its status.
 */
@ObjectType()
@Entity({ tableName: 'invoices' })
// The partner's list (newest first, by status) and the staff's (all, by account, status, overdue).
@Index({ name: 'invoices_account_issued', properties: ['account', 'issuedAt', 'id'] })
@Index({ name: 'invoices_account_status_issued', properties: ['account', 'status', 'issuedAt', 'id'] })
@Index({ name: 'invoices_issued', properties: ['issuedAt', 'id'] })
@Index({ name: 'invoices_status_issued', properties: ['status', 'issuedAt', 'id'] })
@Index({ name: 'invoices_status_due', properties: ['status', 'dueAt', 'id'] })
@Check({ name: 'invoices_paid_within_total_check', expression: '"paid_cents" >= 0 and "paid_cents" <= "total_cents"' })
export class Invoice {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?:
    | 'carriedCreditCents'
    | 'createdAt'
    | 'credits'
    | 'lines'
    | 'overdueNotifiedAt'
    | 'paidAt'
    | 'paidCents'
    | 'status'
    | 'updatedAt'
    | 'voidReason';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Field({ description: 'INV-<YYYYMM>-<4 digits>, numbered within the month it was issued.' })
  @Property({ type: 'string', length: 20, unique: true })
  number!: string;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Rel<Account>;

  @Field(() => InvoiceStatus)
  @Enum({ items: () => InvoiceStatus })
  status: InvoiceStatus = InvoiceStatus.OPEN;

  @Field({ description: 'The month (UTC) the invoice closes, as its first instant.' })
  @Property({ type: 'datetime' })
  periodStart!: Date;

  @Field()
  @Property({ type: 'datetime' })
  issuedAt!: Date;

  @Field()
  @Property({ type: 'datetime' })
  dueAt!: Date;

  @Field(() => [InvoiceLine])
  @Property({ type: 'json' })
  lines: InvoiceLine[] = [];

  @Field(() => [InvoiceCredit])
  @Property({ type: 'json' })
  credits: InvoiceCredit[] = [];

  @Field(() => Int, { description: 'The lines less the credits, in cents; never below zero.' })
  @Property({ type: 'integer' })
  totalCents!: number;

  @Field(() => Int, { description: 'What the account paid of it so far, in cents.' })
  @Property({ type: 'integer', default: 0 })
  paidCents: number = 0;

  /** Credits past the lines (a month of refunds only) carried to the next invoice, in cents. */
  @Property({ type: 'integer', default: 0 })
  carriedCreditCents: number = 0;

  @Field()
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  paidAt: Date | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 500, nullable: true })
  voidReason: string | null = null;

  /** When the account was told the invoice is overdue; told once. */
  @Property({ type: 'datetime', nullable: true })
  overdueNotifiedAt: Date | null = null;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field()
  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** Open and past its due date (D31): the account is told, and places nothing more on account until it is paid. */
export const isOverdue = (invoice: Pick<Invoice, 'status' | 'dueAt'>, now = new Date()): boolean =>
  invoice.status === InvoiceStatus.OPEN && invoice.dueAt.getTime() < now.getTime();

/** The last invoice number given in a month (`YYYYMM`): numbers count up within the month, one at a time. */
@Entity({ tableName: 'invoice_counters' })
export class InvoiceCounter {
  @PrimaryKey({ type: 'string', length: 6 })
  month!: string;

  @Property({ type: 'integer' })
  last!: number;
}
