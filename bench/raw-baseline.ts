/**
 * The yardstick of `npm run bench:polling`: what node's own `http` and `pg` do for the polling paths with no
 * framework at all. Same SQL round trips as a careful hand-written server (the key by its hash, the order by id and
 * account with its revisions, its attachments: 3 queries; a booking with its payment, interpreter and overtime's
 * payment: 2) and the same JSON as the service, download links signed alike: the run stops when the two differ. Run as its own process: `DATABASE_URL=... PORT=... APP_URL=... APP_KEY=... node dist/bench/raw-baseline.js`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Pool } from 'pg';
import { formatOptionalTimestamp as optional, formatTimestamp as stamp } from '../src/api/format';
import { cancellationDeadlines } from '../src/domain/bookings/cancellation-policy';
import type { BookingStatus } from '../src/domain/bookings/booking.entity';
import { SignedUrls } from '../src/domain/files/signed-urls';
import { hashToken } from '../src/domain/shared/tokens';
import { ON_ACCOUNT } from '../src/providers/payment/account-payment-provider';

// The columns each answer reads; `unknown` is a value passed through to the JSON as it is.
interface PaymentColumns {
  payment_id: string | null;
  provider: string | null;
  provider_order_id: unknown;
  approval_url: unknown;
  paid_at: Date | null;
  refunded_at: Date | null;
  refunded_cents: number | null;
}
interface Stamps {
  completed_at: Date | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
type Passed<K extends string> = Record<K, unknown>;
type OrderRow = PaymentColumns &
  Stamps &
  Passed<
    | 'id'
    | 'number'
    | 'status'
    | 'service_type'
    | 'source_language'
    | 'target_language'
    | 'unit_type'
    | 'unit_count'
    | 'document_pages'
    | 'scanned_pages'
    | 'subtotal_cents'
    | 'addons_total_cents'
    | 'total_cents'
    | 'currency'
    | 'reference'
    | 'purchase_order'
    | 'instructions'
    | 'quote_id'
    | 'hold_reason'
    | 'shipment_carrier'
    | 'shipment_tracking_number'
    | 'revision_of_id'
    | 'revision_of_number'
    | 'revision_reason'
    | 'legal_hold'
    | 'legal_hold_by_staff'
  > & {
    addons: Passed<'code' | 'quantity' | 'unitPriceCents' | 'totalCents'>[];
    shipping_address: Passed<'name' | 'line1' | 'line2' | 'city' | 'region' | 'postalCode' | 'country'> | null;
    shipped_at: Date | null;
    due_at: Date | null;
    placed_by: PlacedByColumn;
    certificate_code: string | null;
    revisions: Passed<'id' | 'number' | 'status'>[] | null;
    documents_deleted_at: Date | null;
    revision_window_from: Date | null;
  };
type BookingRow = PaymentColumns &
  Stamps &
  Passed<
    | 'id'
    | 'number'
    | 'status'
    | 'mode'
    | 'setting'
    | 'source_language'
    | 'target_language'
    | 'unit_price_cents'
    | 'total_cents'
    | 'currency'
    | 'location'
    | 'video_platform_notes'
    | 'reference'
    | 'interpreter_name'
    | 'hold_reason'
    | 'interpreter_id'
  > & {
    scheduled_at: Date;
    scheduled_offset_minutes: number;
    held_from: BookingStatus | null;
    duration_hundredths: number;
    billable_hundredths: number;
    placed_by: PlacedByColumn;
    interpreter_record_name: string | null;
    interpreter_qualifications: unknown;
    overtime_hundredths: number | null;
    overtime_cents: number | null;
    overtime_payment_id: string | null;
    overtime_provider: string | null;
    overtime_approval_url: unknown;
    overtime_paid_at: Date | null;
    overtime_refunded_cents: number | null;
  };
/** Who made it, as the column keeps it (D27). */
type PlacedByColumn = { kind: string; member: Passed<'id' | 'name' | 'email'> | null };

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const signed = new SignedUrls(process.env.APP_URL!, process.env.APP_KEY!, []);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ORDER = /^\/api\/v1\/orders\/([^/?]+)$/;
const BOOKING = /^\/api\/v1\/interpretation-bookings\/([^/?]+)$/;

/**
 * A named statement, planned once per connection as the service's polled reads are (planning these joins costs
 * PostgreSQL more than running them: measured 4 ms against 1 ms), so the ratios compare the two servers' own work.
 */
const prepared = <R extends object>(name: string, text: string, values: unknown[]) =>
  pool.query<R>({ name, text, values });

const placedBy = ({ kind, member }: PlacedByColumn) => ({
  kind,
  member: member && { id: member.id, name: member.name, email: member.email },
});

/** A card payment's stable receipt link once paid; work on account has none (its invoice is the document). */
const receiptUrl = (id: string | null, provider: string | null, paidAt: Date | null) =>
  id && paidAt && provider !== ON_ACCOUNT ? `${process.env.APP_URL}/api/v1/payments/${id}/receipt` : null;

const payment = (p: PaymentColumns) => ({
  provider: p.provider,
  provider_order_id: p.provider_order_id,
  approval_url: p.approval_url,
  paid_at: optional(p.paid_at),
  refunded_at: optional(p.refunded_at),
  refunded_cents: p.refunded_cents,
  receipt_url: receiptUrl(p.payment_id, p.provider, p.paid_at),
});

/** The end of a free-revision window: 30 days after the first delivery. */
const windowCloses = (from: Date | null) => from && new Date(from.getTime() + 30 * 24 * 3600_000);

async function order(id: string, accountId: string): Promise<object | null> {
  const { rows } = await prepared<OrderRow>(
    'raw_order',
    `SELECT o.*, p.id AS payment_id, p.provider, p.provider_order_id, p.approval_url, p.paid_at, p.refunded_at, p.refunded_cents, c.code AS certificate_code,
            ro.number AS revision_of_number,
            (SELECT json_agg(json_build_object('id', r.id, 'number', r.number, 'status', r.status) ORDER BY r.created_at, r.id)
               FROM orders r WHERE r.revision_of_id = o.id) AS revisions
       FROM orders o JOIN payments p ON p.id = o.payment_id LEFT JOIN certificates c ON c.order_id = o.id
       LEFT JOIN orders ro ON ro.id = o.revision_of_id
      WHERE o.id = $1 AND o.account_id = $2`,
    [id, accountId],
  );
  const o = rows[0];
  if (!o) return null;
  // Its attachments in one query: the files it lists, and the reference files it names by id (D30).
  const attachments = await prepared<{ id: string; type: string; name: unknown; reference: boolean }>(
    'raw_order_files',
    `SELECT f.id, f.type, f.name, a.reference FROM file_attachments a JOIN files f ON f.id = a.file_id
      WHERE a.order_id = $1 ORDER BY a.created_at, a.id`,
    [id],
  );
  const files = attachments.rows.filter((a) => !a.reference);
  return {
    id: o.id,
    number: o.number,
    status: o.status,
    service_type: o.service_type,
    source_language: o.source_language,
    target_language: o.target_language,
    unit_type: o.unit_type,
    unit_count: o.unit_count,
    document_pages: o.document_pages,
    scanned_pages: o.scanned_pages,
    subtotal_cents: o.subtotal_cents,
    addons: o.addons.map((a) => ({
      code: a.code,
      quantity: a.quantity,
      unit_price_cents: a.unitPriceCents,
      total_cents: a.totalCents,
    })),
    addons_total_cents: o.addons_total_cents,
    total_cents: o.total_cents,
    currency: o.currency,
    reference: o.reference,
    purchase_order: o.purchase_order,
    shipping_address: o.shipping_address && {
      name: o.shipping_address.name,
      line1: o.shipping_address.line1,
      line2: o.shipping_address.line2,
      city: o.shipping_address.city,
      region: o.shipping_address.region,
      postal_code: o.shipping_address.postalCode,
      country: o.shipping_address.country,
    },
    placed_by: placedBy(o.placed_by),
    instructions: o.instructions,
    quote_id: o.quote_id,
    files: files.map((f) => ({
      id: f.id,
      type: f.type,
      name: f.name,
      ...(f.type === 'source' ? {} : { download_url: signed.downloadUrl(f.id) }),
    })),
    payment: payment(o),
    hold_reason: o.hold_reason,
    shipping_address_required: o.addons.some((a) => a.code === 'hard_copy') && !o.shipping_address,
    shipment: o.shipped_at
      ? { carrier: o.shipment_carrier, tracking_number: o.shipment_tracking_number, shipped_at: stamp(o.shipped_at) }
      : null,
    certificate: o.certificate_code && {
      verification_code: o.certificate_code,
      verify_url: `${process.env.APP_URL}/verify/${o.certificate_code}`,
    },
    revision_of: o.revision_of_id ? { id: o.revision_of_id, number: o.revision_of_number } : null,
    revision_reason: o.revision_reason,
    revisions: o.revisions ?? [],
    revision_window_closes_at: optional(windowCloses(o.revision_window_from ?? o.completed_at)),
    reference_file_ids: attachments.rows.filter((a) => a.reference).map((a) => a.id),
    legal_hold: o.legal_hold,
    legal_hold_by_staff: o.legal_hold_by_staff,
    documents_deleted_at: optional(o.documents_deleted_at),
    due_at: optional(o.due_at),
    completed_at: optional(o.completed_at),
    cancelled_at: optional(o.cancelled_at),
    created_at: stamp(o.created_at),
    updated_at: stamp(o.updated_at),
  };
}

/** D32's deadlines, by the policy's own function (a rule, not a read). */
function deadlines(b: BookingRow) {
  const found = cancellationDeadlines({
    status: b.status as BookingStatus,
    heldFrom: b.held_from,
    scheduledAt: b.scheduled_at,
    scheduledOffsetMinutes: b.scheduled_offset_minutes,
  });
  return (
    found && {
      full_refund_until: stamp(found.fullRefundUntil),
      half_refund_until: stamp(found.halfRefundUntil),
      terms: found.terms,
    }
  );
}

async function booking(id: string, accountId: string): Promise<object | null> {
  const { rows } = await prepared<BookingRow>(
    'raw_booking',
    `SELECT b.*, p.id AS payment_id, p.provider, p.provider_order_id, p.approval_url, p.paid_at, p.refunded_at, p.refunded_cents,
            i.name AS interpreter_record_name, i.qualifications AS interpreter_qualifications,
            op.id AS overtime_payment_id, op.provider AS overtime_provider, op.approval_url AS overtime_approval_url,
            op.paid_at AS overtime_paid_at, op.refunded_cents AS overtime_refunded_cents
       FROM interpretation_bookings b LEFT JOIN payments p ON p.id = b.payment_id
       LEFT JOIN interpreters i ON i.id = b.interpreter_id LEFT JOIN payments op ON op.id = b.overtime_payment_id
      WHERE b.id = $1 AND b.account_id = $2`,
    [id, accountId],
  );
  const b = rows[0];
  if (!b) return null;
  return {
    id: b.id,
    number: b.number,
    status: b.status,
    mode: b.mode,
    setting: b.setting,
    source_language: b.source_language,
    target_language: b.target_language,
    scheduled_at: stamp(b.scheduled_at),
    duration_hours: b.duration_hundredths / 100,
    billable_hours: b.billable_hundredths / 100,
    unit_price_cents: b.unit_price_cents,
    total_cents: b.total_cents,
    currency: b.currency,
    payment: {
      ...(b.provider
        ? payment(b)
        : {
            provider: 'sandbox',
            provider_order_id: null,
            approval_url: null,
            paid_at: null,
            refunded_at: null,
            refunded_cents: 0,
            receipt_url: null,
          }),
      overtime:
        b.overtime_hundredths && b.overtime_cents
          ? {
              hours: b.overtime_hundredths / 100,
              amount_cents: b.overtime_cents,
              approval_url: b.overtime_approval_url,
              paid_at: optional(b.overtime_paid_at),
              receipt_url: receiptUrl(b.overtime_payment_id, b.overtime_provider, b.overtime_paid_at),
              refunded_cents: b.overtime_refunded_cents ?? 0,
            }
          : null,
    },
    location: b.location,
    video_platform_notes: b.video_platform_notes,
    reference: b.reference,
    interpreter_name: b.interpreter_name,
    interpreter: b.interpreter_id
      ? { name: b.interpreter_record_name, qualifications: b.interpreter_qualifications }
      : null,
    hold_reason: b.hold_reason,
    cancellation_deadlines: deadlines(b),
    completed_at: optional(b.completed_at),
    cancelled_at: optional(b.cancelled_at),
    created_at: stamp(b.created_at),
    updated_at: stamp(b.updated_at),
    placed_by: placedBy(b.placed_by),
  };
}

const answer = (res: ServerResponse, status: number, body: object) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
};

async function respond(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const account =
      token &&
      (
        await prepared<{ id: string; status: string }>(
          'raw_key',
          `SELECT id, status FROM accounts WHERE api_key_hash = $1`,
          [hashToken(token)],
        )
      ).rows[0];
    if (!account || account.status !== 'approved') return answer(res, 401, { message: 'Unauthenticated.' });
    const [, orderId] = ORDER.exec(req.url!) ?? [];
    const [, bookingId] = BOOKING.exec(req.url!) ?? [];
    const id = orderId ?? bookingId;
    const data = id && UUID.test(id) ? await (orderId ? order(id, account.id) : booking(id, account.id)) : null;
    answer(res, data ? 200 : 404, data ? { data } : { message: 'Not found.' });
  } catch (error) {
    console.error(error);
    answer(res, 500, { message: 'Server Error.' });
  }
}

// respond() answers its own failures: its promise never rejects.
const server = createServer((req, res) => void respond(req, res));
server.listen(Number(process.env.PORT), '127.0.0.1');
