import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique, type Rel } from '@mikro-orm/core';
import { Account } from '../identity/account.entity';
import { newId } from '../shared/ids';

/** One Idempotency-Key of one account (D9): the request it was first used with and, once answered, the answer. */
@Entity({ tableName: 'idempotency_keys' })
@Unique({ properties: ['account', 'key'] })
@Index({ properties: ['createdAt'] })
export class IdempotencyKey {
  /** Defaulted here or by the database: `em.create` need not name them. */
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Rel<Account>;

  @Property({ type: 'string', length: 255 })
  key!: string;

  /**
   * SHA-256 of method, path and body: the same key with another request is refused. Null while a streamed
   * upload, whose body is fingerprinted as it is read, is still being received.
   */
  @Property({ type: 'string', length: 64, nullable: true })
  fingerprint: string | null = null;

  /** Null while the first request is still being answered. */
  @Property({ type: 'smallint', nullable: true })
  statusCode: number | null = null;

  @Property({ type: 'json', nullable: true })
  responseBody: unknown = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
