import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A budget's shared count in one clock window (D24): what the HTTP processes took as leases, in the row whose
 * `processId` is the nil id (rate-limit-leases.ts). Ended windows are deleted by the next lease.
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
