import { DeadlockException, LockWaitTimeoutException, type EntityManager } from '@mikro-orm/core';

const ATTEMPTS = 4;

/**
 * A transaction that is tried again when PostgreSQL breaks a deadlock or a serialization conflict (D26): the
 * work re-runs from the start on fresh reads, so a race ends in a clear answer, never a 500. Work done in it
 * (audit rows, jobs, outbox mail) is part of the transaction, so a retried attempt leaves nothing behind.
 */
export async function retryingTransaction<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await em.transactional(work);
    } catch (error) {
      const conflict = error instanceof DeadlockException || error instanceof LockWaitTimeoutException;
      if (!conflict || attempt >= ATTEMPTS || em.isInTransaction()) throw error;
      // The attempt changed the entities it loaded, and those are the caller's too (a transaction's fork shares
      // them): a refresh never overwrites what was changed in memory, so the next attempt would read the failed one's
      // writes as the database's. It starts from an empty identity map instead, reading every row afresh; what the
      // caller still holds is detached, good for its id and what it read before.
      em.clear();
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
