import type { EntityManager } from '@mikro-orm/core';
import { runSql } from '../../db/orm-driver';

/** Keys named in one statement. */
const BATCH = 1000;

/** A connection whose statements commit at once, outside any transaction (a process's claim connection, D25). */
export interface AutocommitConnection {
  /** With `$1`, `$2`, ... placeholders. */
  execute(sql: string, params: unknown[]): Promise<void>;
}

export interface StorageIntent {
  storageKey: string;
  processId: number;
}

/** Names `key` as about to be written by process `processId`, committed at once on `connection`. */
export async function declareIntent(connection: AutocommitConnection, key: string, processId: number): Promise<void> {
  await connection.execute(
    'insert into "storage_intents" ("storage_key", "process_id", "created_at") values ($1, $2, now())',
    [key, processId],
  );
}

/** Deletes the intent of `key`, in the transaction of `em` that writes the row claiming it. */
export async function fulfilIntent(em: EntityManager, key: string): Promise<void> {
  await runSql(em, 'delete from "storage_intents" where "storage_key" = ?', [key]);
}

/** Every intent, those whose bytes were never written included. */
export async function allIntents(em: EntityManager): Promise<StorageIntent[]> {
  const rows = await runSql<{ storage_key: string; process_id: number }>(
    em,
    'select "storage_key", "process_id" from "storage_intents"',
  );
  return rows.map((row) => ({ storageKey: row.storage_key, processId: row.process_id }));
}

/** Deletes the intents of `keys`. */
export async function clearIntents(em: EntityManager, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += BATCH) {
    await runSql(em, 'delete from "storage_intents" where "storage_key" in (?)', [keys.slice(i, i + BATCH)]);
  }
}

/** Of `keys`, those a file row claims: as its bytes, or as a delivered translation's unstamped bytes (D30). */
export async function keysOfFiles(em: EntityManager, keys: string[]): Promise<Set<string>> {
  const claimed = new Set<string>();
  for (let i = 0; i < keys.length; i += BATCH) {
    const batch = keys.slice(i, i + BATCH);
    const rows = await runSql<{ storage_key: string }>(
      em,
      'select "storage_key" from "files" where "storage_key" in (?) union select "unstamped_storage_key" from "files" where "unstamped_storage_key" in (?)',
      [batch, batch],
    );
    for (const row of rows) claimed.add(row.storage_key);
  }
  return claimed;
}
