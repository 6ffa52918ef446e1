import type { EntityManager } from '@mikro-orm/core';
import { runSql } from '../../db/orm-driver';

/*
 * Keeping and deleting client documents (docs/decisions.md, D33). An order's documents fall due at
 * `documents_expire_at` (its completion or cancellation plus its account's period), which is null while nothing is
 * due: the daily deletion reads the partial index `orders_documents_expiry` from its start, so years of finished orders
 * cost it nothing. A file's deletion is decided (`purge_reason`) before its bytes go and recorded (`purged_at`) after.
 */

/** When a finished order's documents fall due: null for an account that keeps them, or an order on legal hold. */
const EXPIRY = `CASE WHEN a.retention_days IS NULL OR o.legal_hold THEN NULL
  ELSE coalesce(o.completed_at, o.cancelled_at) + a.retention_days * interval '1 day' END`;

/** Finished orders whose documents are not deleted yet (`o`, with its account `a`). */
const UNDELETED = `a.id = o.account_id AND o.status IN ('completed', 'cancelled') AND o.documents_deleted_at IS NULL`;

/** Sets when one finished order's documents fall due (at its completion or cancellation, at a hold's release). */
export const ORDER_EXPIRY = `UPDATE orders o SET documents_expire_at = ${EXPIRY} FROM accounts a WHERE o.id = ? AND ${UNDELETED}`;

/**
 * Sets it again for every finished order of an account whose period changed, on `orders_account_status_created`: a
 * shorter period brings them forward, a longer one or none puts them back.
 */
export const ACCOUNT_EXPIRY = `UPDATE orders o SET documents_expire_at = ${EXPIRY} FROM accounts a
  WHERE o.account_id = ? AND o.status IN ('completed', 'cancelled') AND ${UNDELETED}`;

export async function scheduleOrderExpiry(em: EntityManager, orderId: string): Promise<void> {
  await runSql(em, ORDER_EXPIRY, [orderId]);
}

export async function scheduleAccountExpiry(em: EntityManager, accountId: string): Promise<void> {
  await runSql(em, ACCOUNT_EXPIRY, [accountId]);
}

/** The next orders whose documents fell due by `now`, earliest first: a range of `orders_documents_expiry`. */
export const ORDERS_DUE = `SELECT id FROM orders WHERE documents_expire_at <= ? ORDER BY documents_expire_at, id LIMIT ?`;

export async function ordersDue(em: EntityManager, now: Date, limit: number): Promise<string[]> {
  return (await runSql<{ id: string }>(em, ORDERS_DUE, [now, limit])).map((row) => row.id);
}

/** Files whose deletion was decided but whose bytes are not all known gone (`files_purge_unfinished`). */
export const UNFINISHED_PURGES = `SELECT id FROM files WHERE purge_reason IS NOT NULL AND purged_at IS NULL ORDER BY id LIMIT ?`;

export async function unfinishedPurges(em: EntityManager, limit: number): Promise<string[]> {
  return (await runSql<{ id: string }>(em, UNFINISHED_PURGES, [limit])).map((row) => row.id);
}

/**
 * The other orders that share a file with order `?` (a source used twice, D5), locked in id order after it, so
 * that their holds and deletions wait for this decision and it reads them as they stay.
 */
export const LOCK_SHARING_ORDERS = `SELECT id FROM orders WHERE id IN (
    SELECT b.order_id FROM file_attachments a JOIN file_attachments b ON b.file_id = a.file_id
     WHERE a.order_id = ? AND b.order_id <> a.order_id)
  ORDER BY id FOR UPDATE`;

export async function lockSharingOrders(em: EntityManager, orderId: string): Promise<void> {
  await runSql(em, LOCK_SHARING_ORDERS, [orderId]);
}

/**
 * The order's files, locked: a quote or order attaching one meanwhile (its foreign key check holds a key-share lock
 * on the file) commits first, and the choice below sees its attachment.
 */
export const LOCK_ORDER_FILES = `SELECT f.id FROM file_attachments a JOIN files f ON f.id = a.file_id
  WHERE a.order_id = ? ORDER BY f.id FOR UPDATE OF f`;

export async function lockOrderFiles(em: EntityManager, orderId: string): Promise<void> {
  await runSql(em, LOCK_ORDER_FILES, [orderId]);
}

/**
 * The files of an order whose deletion may be decided at a time: its sources, translations (stamped or not) and
 * reference files, never a certificate, not already decided; and none that another use still needs: another order
 * not finished, on legal hold, or whose own documents are neither due nor deleted, or a quote that can still be
 * converted. Parameters: the order, the time, the time.
 */
export const DELETABLE_FILES = `SELECT f.id FROM file_attachments a JOIN files f ON f.id = a.file_id
  WHERE a.order_id = ? AND f.type <> 'certificate' AND f.purge_reason IS NULL
    AND NOT EXISTS (
      SELECT 1 FROM file_attachments b
        LEFT JOIN orders o ON o.id = b.order_id
        LEFT JOIN quotes q ON q.id = b.quote_id
       WHERE b.file_id = f.id AND (
         (b.order_id <> a.order_id AND NOT coalesce(o.status IN ('completed', 'cancelled') AND NOT o.legal_hold
           AND (o.documents_deleted_at IS NOT NULL OR o.documents_expire_at <= ?), false))
         OR (b.quote_id IS NOT NULL AND q.stored_status = 'priced' AND q.expires_at > ?)))
  ORDER BY f.id`;

export async function deletableFiles(em: EntityManager, orderId: string, now: Date): Promise<string[]> {
  return (await runSql<{ id: string }>(em, DELETABLE_FILES, [orderId, now, now])).map((row) => row.id);
}

/** Decides the deletion of `ids` for `reason`, in the transaction that locked their order. */
export async function markPurging(em: EntityManager, ids: string[], reason: string): Promise<void> {
  if (ids.length)
    await runSql(em, 'UPDATE files SET purge_reason = ? WHERE id IN (?) AND purge_reason IS NULL', [reason, ids]);
}

/** Records a file's bytes gone: true the first time, so that its deletion is audited once. */
export async function markPurged(em: EntityManager, id: string, now: Date): Promise<boolean> {
  const rows = await runSql<{ id: string }>(
    em,
    'UPDATE files SET purged_at = ? WHERE id = ? AND purge_reason IS NOT NULL AND purged_at IS NULL RETURNING id',
    [now, id],
  );
  return rows.length > 0;
}

/** The orders a file belongs to, for its deletion's audit row. */
export async function ordersOfFile(em: EntityManager, fileId: string): Promise<string[]> {
  const rows = await runSql<{ order_id: string }>(
    em,
    'SELECT order_id FROM file_attachments WHERE file_id = ? AND order_id IS NOT NULL ORDER BY order_id',
    [fileId],
  );
  return rows.map((row) => row.order_id);
}
