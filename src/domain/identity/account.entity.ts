import { Check, Entity, Enum, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { newId } from '../shared/ids';

/** How an account pays (D31): each order at the provider's checkout, or on account with a monthly invoice due in 15 or 30 days. */
export enum BillingTerms {
  CHECKOUT = 'CHECKOUT',
  NET_15 = 'NET_15',
  NET_30 = 'NET_30',
}

/** Days from an invoice's issue to its due date, by terms. */
export const TERMS_DAYS: Record<BillingTerms, number> = {
  [BillingTerms.CHECKOUT]: 0,
  [BillingTerms.NET_15]: 15,
  [BillingTerms.NET_30]: 30,
};

export enum AccountStatus {
  PENDING = 'pending',
  APPROVED = 'approved',
  SUSPENDED = 'suspended',
}

/** How long a new account keeps an order's documents (docs/decisions.md, D33). */
export const DEFAULT_RETENTION_DAYS = 90;

/** A customer (law firm, platform, vendor). Its API key is kept only as a SHA-256 hash (D13). */
@ObjectType()
@Entity({ tableName: 'accounts' })
// The desk's search by account name and e-mail (docs/architecture.md, "Lists at scale").
@Index({
  name: 'accounts_name_trgm',
  expression: `create index "accounts_name_trgm" on "accounts" using gin ("name" gin_trgm_ops)`,
})
// The staff list, newest first, of one status or all.
@Index({ name: 'accounts_created', properties: ['createdAt', 'id'] })
@Index({ name: 'accounts_status_created', properties: ['status', 'createdAt', 'id'] })
@Index({
  name: 'accounts_email_trgm',
  expression: `create index "accounts_email_trgm" on "accounts" using gin ("email" gin_trgm_ops)`,
})
@Check({ name: 'accounts_retention_days_check', expression: '"retention_days" >= 1 and "retention_days" <= 3650' })
export class Account {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?:
    | 'apiKeyHash'
    | 'apiKeyIssuedAt'
    | 'apiKeyLast4'
    | 'approvedAt'
    | 'billingTerms'
    | 'createdAt'
    | 'creditLimitCents'
    | 'purchaseOrderRequired'
    | 'retentionDays'
    | 'status'
    | 'suspendedAt'
    | 'updatedAt';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Field()
  @Property({ type: 'string', length: 255 })
  name!: string;

  @Field()
  @Property({ type: 'string', length: 254, unique: true })
  email!: string;

  @Field(() => AccountStatus)
  @Enum({ items: () => AccountStatus })
  status: AccountStatus = AccountStatus.PENDING;

  @Property({ type: 'string', length: 64, nullable: true, unique: true })
  apiKeyHash: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: 'The last four characters of the current key: the key itself is shown only in its e-mail.',
  })
  @Property({ type: 'string', length: 4, nullable: true })
  apiKeyLast4: string | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  apiKeyIssuedAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  approvedAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  suspendedAt: Date | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      "Days an order's documents are kept after it is completed or cancelled, then deleted (1 to 3650); null keeps them.",
  })
  @Property({ type: 'integer', nullable: true, default: DEFAULT_RETENTION_DAYS })
  retentionDays: number | null = DEFAULT_RETENTION_DAYS;
  @Field(() => BillingTerms, {
    description:
      'CHECKOUT: every order is paid at the checkout; NET_15 or NET_30: placed on account, invoiced monthly.',
  })
  @Enum({ items: () => BillingTerms, default: BillingTerms.CHECKOUT })
  billingTerms: BillingTerms = BillingTerms.CHECKOUT;

  @Field(() => Int, {
    description: 'On terms: open invoices plus uninvoiced work on account may not pass this, in cents.',
  })
  @Property({ type: 'integer', default: 0 })
  creditLimitCents: number = 0;

  @Field({ description: 'Whether every quote of the account must carry a purchase order.' })
  @Property({ type: 'boolean', default: false })
  purchaseOrderRequired: boolean = false;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field()
  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
