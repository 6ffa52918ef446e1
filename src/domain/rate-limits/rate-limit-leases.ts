import type { MikroORM } from '@mikro-orm/postgresql';
import { takeSharedLease } from './rate-limit-leases.queries';
import type { Logger } from '../../shared/logger';
import type { LeaseStore } from './rate-limit.service';

/**
 * The shared count of D24 for several HTTP processes on one database: a lease is one statement on the bucket's row
 * for the window (`takeSharedLease`), which never lets two processes both take the last lease.
 */
export class DatabaseLeases implements LeaseStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly logger: Logger,
  ) {}

  async take(bucket: string, windowStart: Date, amount: number, ceiling: number): Promise<number | null> {
    try {
      return await takeSharedLease(this.orm.em.fork(), bucket, windowStart, amount, ceiling);
    } catch (err) {
      // The budget keeps working on this process's own count while the database does not answer.
      this.logger.warn({ err }, 'rate limit lease failed');
      return amount;
    }
  }
}
