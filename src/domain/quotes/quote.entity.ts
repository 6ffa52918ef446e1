import {
  ArrayType,
  Entity,
  Enum,
  Index,
  ManyToOne,
  OptionalProps,
  PrimaryKey,
  Property,
  type Rel,
} from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Account } from '../identity/account.entity';
import { newId } from '../shared/ids';
import { PricedWork } from './priced-work';

export { QuotedAddon } from './quoted-addon';

/** Stored states; `expired` is derived from `expiresAt` (see quoteStatus), so no job has to flip it. */
export enum QuoteStatus {
  PRICED = 'priced',
  CONVERTED = 'converted',
  EXPIRED = 'expired',
}

@ObjectType()
@Entity({ tableName: 'quotes' })
@Index({ properties: ['account', 'createdAt'] })
export class Quote extends PricedWork {
  [OptionalProps]?: 'createdAt' | 'storedStatus' | 'updatedAt';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Rel<Account>;

  /** Only `priced` or `converted` are stored; the database refuses anything else. */
  @Enum({ items: [QuoteStatus.PRICED, QuoteStatus.CONVERTED] })
  storedStatus: QuoteStatus = QuoteStatus.PRICED;

  /** In the order the client gave them; each is also recorded as a file attachment. */
  @Field(() => [ID])
  @Property({ type: ArrayType })
  fileIds!: string[];

  @Field(() => Int)
  @Property({ type: 'integer' })
  unitPriceCents!: number;

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
