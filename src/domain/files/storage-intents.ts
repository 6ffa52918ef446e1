import type { EntityManager } from '@mikro-orm/core';
import { declareIntent, fulfilIntent, type AutocommitConnection } from './storage-intents.queries';

/**
 * Intent, write, commit (D25): a process names a storage key in `storage_intents` (committed on its own) before it
 * writes a byte under it, and the transaction that commits the file row claiming the key deletes the intent. Bytes
 * under a key are therefore always claimed by a row or by an intent, and an intent of a dead process names bytes
 * that nothing will claim (orphan-sweep.ts).
 */
export class StorageIntents {
  /** `claim`: this process's mark of life (`ProcessClaim`), its id and its own connection. */
  constructor(private readonly claim: AutocommitConnection & { id: number }) {}

  /** Committed at once, on the process's own connection, outside the caller's transaction, which may yet roll back. */
  async declare(key: string): Promise<void> {
    await declareIntent(this.claim, key, this.claim.id);
  }

  /** In the transaction that writes the row claiming `key`: at its commit the intent has become the row. */
  async fulfil(em: EntityManager, key: string): Promise<void> {
    await fulfilIntent(em, key);
  }
}
