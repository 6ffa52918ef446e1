import { Check, Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { newId } from '../shared/ids';

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
// The desk's search by account name (docs/architecture.md, "Lists at scale").
@Index({
  name: 'accounts_name_trgm',
  expression: `create index "accounts_name_trgm" on "accounts" using gin ("name" gin_trgm_ops)`,
})
@Check({ name: 'accounts_retention_days_check', expression: '"retention_days" >= 1 and "retention_days" <= 3650' })
export class Account {
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

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field()
  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
