import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/** One caller's current one-minute window (D16): an API key's account, or a client address on the catalog. */
@Entity({ tableName: 'rate_limit_windows' })
@Index({ properties: ['startedAt'] })
export class RateLimitWindow {
  @PrimaryKey({ type: 'string', length: 100 })
  bucket!: string;

  @Property({ type: 'datetime' })
  startedAt!: Date;

  @Property({ type: 'integer' })
  hits!: number;
}
