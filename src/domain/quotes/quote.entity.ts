import { ArrayType, Entity, Enum, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Account } from '../accounts/account.entity';
import { BillingUnit, ServiceType } from '../catalog/catalog.enums';
import { newId } from '../shared/ids';

/** Stored states; `expired` is derived from `expiresAt` (see quoteStatus), so no job has to flip it. */
export enum QuoteStatus {
  PRICED = 'priced',
  CONVERTED = 'converted',
  EXPIRED = 'expired',
}

/** One priced add-on line, with the prices it was quoted at (D7: a later rate change never alters it). */
@ObjectType()
export class QuotedAddon {
  @Field() code!: string;
  @Field(() => Int) quantity!: number;
  @Field(() => Int) unitPriceCents!: number;
  @Field(() => Int) totalCents!: number;
}

@ObjectType()
@Entity({ tableName: 'quotes' })
@Index({ properties: ['account', 'createdAt'] })
export class Quote {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Rel<Account>;

  /** Only `priced` or `converted` are stored; the database refuses anything else. */
  @Enum({ items: [QuoteStatus.PRICED, QuoteStatus.CONVERTED] })
  storedStatus: QuoteStatus = QuoteStatus.PRICED;

  @Field(() => ServiceType)
  @Enum({ items: () => ServiceType })
  serviceType!: ServiceType;

  @Field()
  @Property({ type: 'string', length: 20 })
  sourceLanguage!: string;

  @Field()
  @Property({ type: 'string', length: 20 })
  targetLanguage!: string;

  /** In the order the client gave them; each is also recorded as a file attachment. */
  @Field(() => [ID])
  @Property({ type: ArrayType })
  fileIds!: string[];

  @Field(() => BillingUnit)
  @Enum({ items: () => BillingUnit })
  unitType!: BillingUnit;

  @Field(() => Int)
  @Property({ type: 'integer' })
  unitCount!: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  unitPriceCents!: number;

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

  @Field()
  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** What clients see: a priced quote past its expiry is `expired`. */
export function quoteStatus(quote: Quote, now = new Date()): QuoteStatus {
  return quote.storedStatus === QuoteStatus.PRICED && quote.expiresAt <= now ? QuoteStatus.EXPIRED : quote.storedStatus;
}
