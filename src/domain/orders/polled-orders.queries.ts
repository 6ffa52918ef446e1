import type { EntityManager } from '@mikro-orm/core';
import type { OrderFileRead, OrderRead, OrderView, PolledOrder, RevisionLink } from './order-read';
import type { Order } from './order.entity';
import type { PageRequest, VersionedPage } from '../shared/pagination';
import { runPrepared, type DateOf, type PreparedStatement, type SqlRow } from '../../db/orm-driver';
import { readAccountPage, type AccountListFilter, type ListShape } from '../shared/account-page.queries';
import { PAYMENT_COLUMNS, paymentOf } from '../payments/holder-payment.queries';
import { ORDER_COUNT_TABLES } from './order-counts.queries';

/**
 * The version of an order's answer: which committed version of its row and of its payment's row it shows (`xmin`,
 * the transaction that wrote each, changes with every update and with nothing else) and the ids of its files in
 * order (a file's type and name never change). Taken in the database, so no write path can forget to bump it.
 */
const VERSION = `md5(o.xmin::text || '/' || p.xmin::text || '/' || coalesce(f.ids, ''))`;

const ORDER = `FROM orders o JOIN payments p ON p.id = o.payment_id`;

/** D30: the order a revision revises, the revisions of an order, a revision's reason and reference files. */
const REVISION_COLUMNS = `o.revision_of_id, ro.number AS revision_of_number, ro.status AS revision_of_status, o.revision_reason, o.revision_window_from, rv.revisions, rf.reference_file_ids`;

/** The joins `REVISION_COLUMNS` read: the revised order's number, the revisions oldest first, the reference files in order. */
const REVISIONS = `LEFT JOIN orders ro ON ro.id = o.revision_of_id
  LEFT JOIN LATERAL (
    SELECT json_agg(json_build_object('id', r.id, 'number', r.number, 'status', r.status) ORDER BY r.created_at, r.id) AS revisions
      FROM orders r WHERE r.revision_of_id = o.id) rv ON true
  LEFT JOIN LATERAL (
    SELECT json_agg(ra.file_id ORDER BY ra.created_at, ra.id) AS reference_file_ids
      FROM file_attachments ra WHERE ra.order_id = o.id AND ra.reference) rf ON true`;

/** An order's answer, as `orderViewOf` maps it (`o` the order, with `ORDER_VIEW_JOINS`). */
export const ORDER_VIEW_COLUMNS = `o.id, o.number, o.status, o.service_type, o.source_language, o.target_language, o.unit_type, o.unit_count,
  o.document_pages, o.scanned_pages, o.subtotal_cents, o.addons, o.addons_total_cents, o.total_cents, o.currency, o.reference, o.purchase_order, o.quote_id, o.hold_reason, o.due_at,
  o.completed_at, o.cancelled_at, o.created_at, o.updated_at, o.shipping_address, o.shipment_carrier, o.shipment_tracking_number,
  o.shipped_at, o.placed_by, o.instructions, o.legal_hold, o.legal_hold_reason, o.legal_hold_by_staff, o.documents_deleted_at, ${PAYMENT_COLUMNS}, c.code AS certificate_code, f.files, ${REVISION_COLUMNS}`;

/** The order's certificate, if one was issued (D20): its code, shown on the completed order (D29). */
const CERTIFICATE = `LEFT JOIN certificates c ON c.order_id = o.id`;

/** An order's files, as its answer lists them: oldest attachment first. */
const FILES = `LEFT JOIN LATERAL (
    SELECT json_agg(json_build_object('id', sf.id, 'type', sf.type, 'name', sf.name, 'purgeReason', sf.purge_reason) ORDER BY a.created_at, a.id) AS files,
           string_agg(a.file_id::text, ',' ORDER BY a.created_at, a.id) AS ids
      FROM file_attachments a JOIN files sf ON sf.id = a.file_id WHERE a.order_id = o.id AND NOT a.reference) f ON true`;

/** An order's payment, certificate and files, as its answer shows them: the joins `ORDER_VIEW_COLUMNS` read. */
export const ORDER_VIEW_JOINS = `JOIN payments p ON p.id = o.payment_id ${CERTIFICATE} ${FILES} ${REVISIONS}`;

/**
 * An order of an account with its payment, certificate code, files and version: order `id` of the account `account`
 * names, parameters or, when the key's look-up reads it in the same statement (account-by-key.queries.ts), the key's
 * account.
 */
export const orderAnswerOf = (id: string, account: string) =>
  `SELECT ${ORDER_VIEW_COLUMNS}, ${VERSION} AS version ${ORDER} ${CERTIFICATE} ${FILES} ${REVISIONS} WHERE o.id = ${id} AND o.account_id = ${account}`;

/** An order of an account (`$1` the order, `$2` the account), as `orderAnswerOf` reads it. */
export const ORDER_READ: PreparedStatement = { name: 'order_read', sql: orderAnswerOf('$1', '$2') };

/** The ids of an order's files in order, all its version needs of them. */
const FILE_IDS = `LEFT JOIN LATERAL (
    SELECT string_agg(a.file_id::text, ',' ORDER BY a.created_at, a.id) AS ids
      FROM file_attachments a WHERE a.order_id = o.id AND NOT a.reference) f ON true`;

/**
 * Only the version of that answer, for a conditional request: of order `id` of the account `account` names, parameters
 * or, when the key's look-up reads it in the same statement (account-by-key.queries.ts), the key's account.
 */
export const orderVersionOf = (id: string, account: string) =>
  `SELECT ${VERSION} AS version ${ORDER} ${FILE_IDS} WHERE o.id = ${id} AND o.account_id = ${account}`;

export const ORDER_VERSION: PreparedStatement = { name: 'order_version', sql: orderVersionOf('$1', '$2') };

/** An account's orders as their list shows them: the page is chosen before payments and files are read. */
export const ORDER_LIST: ListShape = {
  name: 'order_page',
  from: 'orders o',
  alias: 'o',
  columns: ORDER_VIEW_COLUMNS,
  version: VERSION,
  joins: `LEFT JOIN orders o ON o.id = page.id LEFT JOIN payments p ON p.id = o.payment_id ${CERTIFICATE} ${FILES} ${REVISIONS}`,
  key: ['o.created_at', 'o.id'],
  counts: ORDER_COUNT_TABLES,
};

/**
 * The polling path (D23): the order of this account, its payment and its files in one statement, mapped straight
 * onto the answer's fields instead of hydrating three kinds of entity. Answers as the entity path does (tested).
 */
export async function readOrder(em: EntityManager, accountId: string, id: string): Promise<PolledOrder | null> {
  const { rows, date } = await runPrepared(em, ORDER_READ, [id, accountId]);
  return rows[0] ? polledOrderOf(rows[0], date) : null;
}

/** A row of `orderAnswerOf` as the polled order, whether read alone or with the key. */
export const polledOrderOf = (row: SqlRow, date: DateOf): PolledOrder => ({
  ...orderViewOf(row, date),
  version: row.version as string,
});

/**
 * A page of an account's orders as their answers show them, with its total, in one statement and without entities:
 * a page of 100 orders hydrated as entities cost the event loop a third of a second, which every other tenant
 * waited for.
 */
export function readOrderPage(
  em: EntityManager,
  accountId: string,
  filter: AccountListFilter,
  request: PageRequest,
): Promise<VersionedPage<OrderView>> {
  return readAccountPage(em, ORDER_LIST, accountId, filter, request, orderViewOf);
}

/** Only the version, for a conditional request: nothing of the answer is read. */
export async function readOrderVersion(em: EntityManager, accountId: string, id: string): Promise<string | null> {
  const { rows } = await runPrepared(em, ORDER_VERSION, [id, accountId]);
  return (rows[0]?.version as string | undefined) ?? null;
}

/** A row of `ORDER_VIEW_COLUMNS`, as the entity path answers it (tested). */
export function orderViewOf(row: SqlRow, date: DateOf): OrderView {
  const order: OrderRead = {
    id: row.id as string,
    number: row.number as string,
    status: row.status as Order['status'],
    serviceType: row.service_type as Order['serviceType'],
    sourceLanguage: row.source_language as string,
    targetLanguage: row.target_language as string,
    unitType: row.unit_type as Order['unitType'],
    unitCount: row.unit_count as number,
    documentPages: row.document_pages as number | null,
    scannedPages: row.scanned_pages as number | null,
    subtotalCents: row.subtotal_cents as number,
    addons: row.addons as Order['addons'],
    addonsTotalCents: row.addons_total_cents as number,
    totalCents: row.total_cents as number,
    currency: row.currency as string,
    reference: row.reference as string | null,
    purchaseOrder: row.purchase_order as string | null,
    shippingAddress: (row.shipping_address as Order['shippingAddress']) ?? null,
    shipmentCarrier: row.shipment_carrier as string | null,
    shipmentTrackingNumber: row.shipment_tracking_number as string | null,
    shippedAt: date(row.shipped_at),
    quote: { id: row.quote_id as string },
    payment: paymentOf(row, date),
    certificateCode: row.certificate_code as string | null,
    holdReason: row.hold_reason as string | null,
    dueAt: date(row.due_at),
    completedAt: date(row.completed_at),
    cancelledAt: date(row.cancelled_at),
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
    placedBy: row.placed_by as Order['placedBy'],
    revisionReason: row.revision_reason as string | null,
    revisionOf: row.revision_of_id
      ? {
          id: row.revision_of_id as string,
          number: row.revision_of_number as string,
          status: row.revision_of_status as Order['status'],
        }
      : null,
    revisionWindowFrom: date(row.revision_window_from),
    revisions: (row.revisions as RevisionLink[] | null) ?? [],
    referenceFileIds: (row.reference_file_ids as string[] | null) ?? [],
    instructions: row.instructions as string | null,
    legalHold: row.legal_hold as boolean,
    legalHoldReason: row.legal_hold_reason as string | null,
    legalHoldByStaff: row.legal_hold_by_staff as boolean,
    documentsDeletedAt: date(row.documents_deleted_at),
  };
  return { order, files: (row.files as OrderFileRead[] | null) ?? [] };
}
