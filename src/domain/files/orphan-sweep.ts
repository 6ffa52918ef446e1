import type { EntityManager } from '@mikro-orm/core';
import { allIntents, clearIntents, keysOfFiles } from './storage-intents.queries';
import type { FileStorage, StoredKey } from '../../providers/storage/file-storage';
import { STALE_AFTER_MS } from './temp-files';

export interface SweptStorage {
  /** Keys whose bytes were removed. */
  removed: string[];
  /** Intents of dead processes cleared (their bytes, if any, among `removed`). */
  clearedIntents: number;
}

/**
 * Removes stored bytes that no file row claims (D25): those under an intent of a process that died before its
 * commit (at once), and those under no intent at all (written by a version of the service before intents, or
 * left by a failed delete) once they are older than STALE_AFTER_MS. Bytes under a row, or under the intent of a
 * live process (`liveIds`, on any machine sharing the database), are kept: that process may still commit.
 *
 * The order makes a concurrent writer safe: a key is listed only once its bytes exist, its intent was committed
 * before them, and the claims and liveness are read after the listing, when its row or intent is there to see.
 */
export async function sweepStorage(
  em: EntityManager,
  storage: FileStorage,
  liveIds: () => Promise<Set<number>>,
): Promise<SweptStorage> {
  const listed: StoredKey[] = [];
  for await (const stored of storage.keys()) listed.push(stored);
  const byKey = new Map(listed.map((stored) => [stored.key, stored]));
  const keys = [...byKey.keys()];
  const rows = await keysOfFiles(em, keys);
  // Every intent, those whose bytes were never written included: a dead process's are cleared below.
  const intents = await allIntents(em);
  const owners = new Map(intents.map((intent) => [intent.storageKey, intent.processId]));
  const live = await liveIds();
  const oldEnough = Date.now() - STALE_AFTER_MS;
  const unclaimed = keys.filter((key) => {
    if (rows.has(key)) return false;
    const owner = owners.get(key);
    return owner === undefined ? byKey.get(key)!.modifiedAt.getTime() < oldEnough : !live.has(owner);
  });
  for (const key of unclaimed) await storage.delete(key);
  const dead = intents.filter((intent) => !live.has(intent.processId)).map((intent) => intent.storageKey);
  await clearIntents(em, dead);
  return { removed: unclaimed, clearedIntents: dead.length };
}
