import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * What one HTTP process spent from one budget in one clock window (D24). Each process writes only its own rows,
 * in a batch per sync, so no row is written by two processes and none on a request's path.
 */
@Entity({ tableName: 'rate_limit_counts' })
@Index({ properties: ['windowStart'] })
export class RateLimitCount {
  @PrimaryKey({ type: 'string', length: 100 })
  bucket!: string;

  @PrimaryKey({ type: 'datetime' })
  windowStart!: Date;

  @PrimaryKey({ type: 'uuid' })
  processId!: string;

  @Property({ type: 'integer' })
  hits!: number;
}
