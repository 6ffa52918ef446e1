import type { EntityManager } from '@mikro-orm/core';
import { runSql } from '../../db/orm-driver';

/** Where an account's orders are counted by status (the triggers of Migration20261125130000_order_counts). */
export const ORDER_COUNT_TABLES = { table: 'order_counts', changes: 'order_count_changes' };

/** An arbitrary constant: the advisory lock one fold at a time holds (two would wait on each other's rows). */
const ORDER_COUNT_FOLD_LOCK = 724_118_004;

/**
 * Adds the changes the triggers recorded into the counts and removes them, in one statement: a reader sees either
 * both before or both after, so a total never counts a change twice or misses it. A change committed meanwhile waits
 * for the next fold.
 */
export const ORDER_COUNT_FOLD = `WITH moved AS (DELETE FROM order_count_changes RETURNING account_id, status, delta)
INSERT INTO order_counts AS c (account_id, status, n)
SELECT account_id, status, sum(delta) FROM moved GROUP BY account_id, status
ON CONFLICT (account_id, status) DO UPDATE SET n = c.n + excluded.n`;

/** Folds the recorded changes (every minute, from the workers); false when another process is folding. */
export function foldOrderCounts(em: EntityManager): Promise<boolean> {
  return em.transactional(async (tx) => {
    const [{ locked }] = await runSql<{ locked: boolean }>(tx, 'SELECT pg_try_advisory_xact_lock(?) AS locked', [
      ORDER_COUNT_FOLD_LOCK,
    ]);
    if (locked) await runSql(tx, ORDER_COUNT_FOLD);
    return locked;
  });
}

/**
 * Counts every account's orders again, for an operator after writes that bypassed the triggers (a restore with them
 * disabled). Order writes wait meanwhile (a share lock on `orders`): none can slip between the count and the reset.
 */
export function rebuildOrderCounts(em: EntityManager): Promise<void> {
  return em.transactional(async (tx) => {
    await runSql(tx, 'LOCK TABLE orders IN SHARE MODE');
    await runSql(tx, 'DELETE FROM order_count_changes');
    await runSql(tx, 'DELETE FROM order_counts');
    await runSql(
      tx,
      'INSERT INTO order_counts (account_id, status, n) SELECT account_id, status, count(*) FROM orders GROUP BY account_id, status',
    );
  });
}
