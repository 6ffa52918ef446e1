import type { EntityManager } from '@mikro-orm/core';
import { runSql } from '../../db/orm-driver';

/** The provider name of work on account (D31), as payments store it. */
const ON_ACCOUNT = `'account'`;

/** The account whose order or booking payment `$1` pays for. */
export async function accountOfPayment(em: EntityManager, paymentId: string): Promise<string | null> {
  const rows = await runSql<{ account_id: string }>(
    em,
    `SELECT coalesce(o.account_id, b.account_id) AS account_id FROM payments p
       LEFT JOIN orders o ON o.id = p.order_id LEFT JOIN interpretation_bookings b ON b.id = p.booking_id
      WHERE p.id = ?`,
    [paymentId],
  );
  return rows[0]?.account_id ?? null;
}

/** What an account owes on terms (D31), in cents, and whether an invoice of it is overdue. */
export interface AccountExposure {
  /** Open invoices less what was paid of them. */
  openCents: number;
  /**
   * Work on account not invoiced yet (a placement under way counts its amount), less refunds not credited yet, less
   * credit carried from the last invoice.
   */
  uninvoicedCents: number;
  overdue: boolean;
}

/** D31's credit check reads this: the account's invoices and its payments on account not yet invoiced. */
export async function accountExposure(em: EntityManager, accountId: string, now: Date): Promise<AccountExposure> {
  const [row] = await runSql<{ open_cents: string; work_cents: string; credit_cents: string; overdue: boolean }>(
    em,
    `WITH work AS (
       SELECT p.id, p.status, p.amount_cents, p.captured_cents FROM payments p
         LEFT JOIN orders o ON o.id = p.order_id LEFT JOIN interpretation_bookings b ON b.id = p.booking_id
        WHERE p.provider = ${ON_ACCOUNT} AND coalesce(o.account_id, b.account_id) = ?)
     SELECT
       (SELECT coalesce(sum(i.total_cents - i.paid_cents), 0) FROM invoices i
         WHERE i.account_id = ? AND i.status = 'open') AS open_cents,
       (SELECT coalesce(sum(CASE WHEN w.status = 'capturing' THEN w.amount_cents ELSE w.captured_cents END), 0)
          FROM work w JOIN payments p ON p.id = w.id
         WHERE p.invoice_id IS NULL AND w.status IN ('capturing', 'captured', 'refunding', 'refunded', 'refund_refused'))
         AS work_cents,
       (SELECT coalesce(sum(r.amount_cents), 0) FROM payment_refunds r JOIN work w ON w.id = r.payment_id
         WHERE r.invoice_id IS NULL)
       + (SELECT coalesce(sum(i.carried_credit_cents), 0) FROM invoices i
         WHERE i.account_id = ? AND i.status <> 'void' AND i.carried_credit_cents > 0
           AND NOT EXISTS (SELECT 1 FROM invoices later WHERE later.account_id = i.account_id
                             AND later.status <> 'void' AND later.issued_at > i.issued_at)) AS credit_cents,
       EXISTS (SELECT 1 FROM invoices i WHERE i.account_id = ? AND i.status = 'open' AND i.due_at < ?) AS overdue`,
    [accountId, accountId, accountId, accountId, now],
  );
  return {
    openCents: Number(row.open_cents),
    uninvoicedCents: Number(row.work_cents) - Number(row.credit_cents),
    overdue: row.overdue,
  };
}

/** A payment on account not yet invoiced, with what it paid for, as an invoice line prints it. */
export interface UninvoicedWork {
  paymentId: string;
  kind: 'order' | 'booking';
  ownerId: string;
  number: string;
  reference: string | null;
  purchaseOrder: string | null;
  description: string;
  amountCents: number;
  currency: string;
}

/** The account's placed work on account (captured) not yet invoiced, placed before `before`, oldest first. */
export async function uninvoicedWork(em: EntityManager, accountId: string, before: Date): Promise<UninvoicedWork[]> {
  const rows = await runSql<Record<string, unknown>>(
    em,
    `SELECT p.id AS payment_id, CASE WHEN o.id IS NULL THEN 'booking' ELSE 'order' END AS kind,
            coalesce(o.id, b.id) AS owner_id, coalesce(o.number, b.number) AS number,
            coalesce(o.reference, b.reference) AS reference, o.purchase_order, p.description, p.captured_cents, p.currency
       FROM payments p
       LEFT JOIN orders o ON o.id = p.order_id LEFT JOIN interpretation_bookings b ON b.id = p.booking_id
      WHERE p.provider = ${ON_ACCOUNT} AND p.invoice_id IS NULL AND p.paid_at < ?
        AND p.status IN ('captured', 'refunding', 'refunded', 'refund_refused')
        AND coalesce(o.account_id, b.account_id) = ?
      ORDER BY p.paid_at, p.id
      FOR UPDATE OF p`,
    [before, accountId],
  );
  return rows.map((row) => ({
    paymentId: row.payment_id as string,
    kind: row.kind as 'order' | 'booking',
    ownerId: row.owner_id as string,
    number: row.number as string,
    reference: row.reference as string | null,
    purchaseOrder: row.purchase_order as string | null,
    description: row.description as string,
    amountCents: row.captured_cents as number,
    currency: row.currency as string,
  }));
}

/** A refund of work on account not yet credited. */
export interface UncreditedRefund {
  refundId: string;
  number: string;
  amountCents: number;
}

/** The account's refunds on account not yet credited, made before `before`, oldest first. */
export async function uncreditedRefunds(
  em: EntityManager,
  accountId: string,
  before: Date,
): Promise<UncreditedRefund[]> {
  const rows = await runSql<Record<string, unknown>>(
    em,
    `SELECT r.id, coalesce(o.number, b.number) AS number, r.amount_cents
       FROM payment_refunds r JOIN payments p ON p.id = r.payment_id
       LEFT JOIN orders o ON o.id = p.order_id LEFT JOIN interpretation_bookings b ON b.id = p.booking_id
      WHERE p.provider = ${ON_ACCOUNT} AND r.invoice_id IS NULL AND r.created_at < ? AND r.amount_cents > 0
        AND coalesce(o.account_id, b.account_id) = ?
      ORDER BY r.created_at, r.id
      FOR UPDATE OF r`,
    [before, accountId],
  );
  return rows.map((row) => ({
    refundId: row.id as string,
    number: row.number as string,
    amountCents: row.amount_cents as number,
  }));
}

/** The next invoice number of month `month` (`YYYYMM`), counted in the caller's transaction. */
export async function nextInvoiceNumber(em: EntityManager, month: string): Promise<number> {
  const [row] = await runSql<{ last: number }>(
    em,
    `INSERT INTO invoice_counters AS c (month, last) VALUES (?, 1)
     ON CONFLICT (month) DO UPDATE SET last = c.last + 1 RETURNING last`,
    [month],
  );
  return row.last;
}

/** Terms accounts with work on account or refunds not yet invoiced before `before`: whom the monthly close visits. */
export async function accountsToInvoice(em: EntityManager, before: Date): Promise<string[]> {
  const rows = await runSql<{ account_id: string }>(
    em,
    `SELECT DISTINCT coalesce(o.account_id, b.account_id) AS account_id FROM payments p
       LEFT JOIN orders o ON o.id = p.order_id LEFT JOIN interpretation_bookings b ON b.id = p.booking_id
      WHERE p.provider = ${ON_ACCOUNT} AND p.invoice_id IS NULL AND p.paid_at < ?
     UNION
     SELECT DISTINCT coalesce(o.account_id, b.account_id) FROM payment_refunds r JOIN payments p ON p.id = r.payment_id
       LEFT JOIN orders o ON o.id = p.order_id LEFT JOIN interpretation_bookings b ON b.id = p.booking_id
      WHERE p.provider = ${ON_ACCOUNT} AND r.invoice_id IS NULL AND r.created_at < ?`,
    [before, before],
  );
  return rows.map((row) => row.account_id);
}

/**
 * One placement on account of an account at a time, until the caller's transaction ends (D31). An advisory lock, not
 * the account's row: the order or booking being placed already holds a key-share lock on that row (its foreign key),
 * so two placements locking the row would deadlock on each other's.
 */
export async function lockAccountPlacements(em: EntityManager, accountId: string): Promise<void> {
  await runSql(em, `SELECT pg_advisory_xact_lock(hashtextextended('account-placement:' || ?, 0))`, [accountId]);
}
