import { z } from 'zod';
import { FileType } from '../../../domain/files/file.entity';
import { OrderStatus } from '../../../domain/orders/order.entity';
import { ORDER_LIFECYCLE } from '../openapi/lifecycles';
import { Id, Timestamp, Url } from './base.response';
import { Payment } from './payment.response';
import { pricedWork } from './priced-work.response';
import { component, documented } from './response-registry';

const orderNumber = z.string().regex(/^[A-Z0-9]{2,10}-\d{4}-[A-Z0-9]{6}$/);

export const OrderFile = component(
  'OrderFile',
  z.strictObject({
    id: Id.describe('The file id, readable with `GET /files/{id}`.'),
    type: documented(
      z.enum(FileType),
      '`source`: a document of the quote. `translation`, `certificate`: delivered once the order is completed.',
    ),
    name: documented(z.string(), 'File name.'),
    download_url: documented(
      Url.optional(),
      'Translations and certificates only (absent on sources): a signed link, valid 5 minutes, no key needed.',
    ),
  }),
);

export const OrderLink = component(
  'OrderLink',
  z.strictObject({
    id: Id.describe('The order id.'),
    number: documented(z.string(), 'The order number.', ['LT-2611-AB12CD']),
  }),
);

/** A revision of an order, named, with its status: open until `completed` or `cancelled` (D30). */
export const RevisionLink = component(
  'RevisionLink',
  z.strictObject({
    id: Id.describe('The revision (an order) id.'),
    number: documented(z.string(), "The revision's order number.", ['LT-2611-AB12CD']),
    status: documented(
      z.enum(OrderStatus),
      "The revision's status: while it is neither `completed` nor `cancelled` it is open, and no other revision may be asked for.",
    ),
  }),
);

/** An order as `getOrder` answers it (D10), with the fields D29, D30 and D33 added. */
export const Order = component(
  'Order',
  z.strictObject({
    id: Id.describe('The order id.'),
    number: documented(
      orderNumber,
      'Short order number for people, invoices and the certificate: operator prefix, year and month made (YYMM), six characters.',
      ['LT-2611-AB12CD'],
    ),
    status: documented(z.enum(OrderStatus), ORDER_LIFECYCLE),
    ...pricedWork,
    quote_id: Id.describe("The quote the order was made from; its prices are the quote's."),
    files: documented(
      z.array(OrderFile),
      'The sources, then, once the order is completed, the translations and (certified orders) the certificate of accuracy.',
    ),
    payment: Payment.describe("The order's payment."),
    hold_reason: documented(z.string().nullable(), 'Why the order is on hold; null unless `status` is `on_hold`.'),
    shipping_address_required: documented(
      z.boolean(),
      'True while the order has hard copies (`hard_copy`) and no `shipping_address`: set it with `PUT /orders/{id}/shipping_address`. False otherwise.',
    ),
    shipment: documented(
      z
        .strictObject({
          carrier: documented(z.string(), 'Who carries the parcel (as staff recorded it).'),
          tracking_number: documented(z.string(), "The carrier's tracking number."),
          shipped_at: Timestamp.describe('When staff handed the hard copies to the carrier (UTC).'),
        })
        .nullable(),
      'The mailed hard copies on their way, once the order is completed and staff hand them to a carrier (the account is e-mailed; a correction staff make later is e-mailed too); null before, and always without `hard_copy`.',
    ),
    certificate: documented(
      z
        .strictObject({
          verification_code: documented(
            z.string(),
            'The code printed on the certificate of accuracy and on every translated page.',
            ['K7QM-3XPA-9RTD-2WBN'],
          ),
          verify_url: documented(
            Url,
            'The public page that verifies the certificate (`GET /certificates/{code}` answers the same as JSON).',
          ),
        })
        .nullable(),
      'The certificate of accuracy of a completed certified order; null otherwise.',
    ),
    revision_of: documented(OrderLink.nullable(), 'For a free revision: the order it revises; null otherwise.'),
    revision_reason: documented(z.string().nullable(), 'For a revision: what the client asked to have revised.'),
    revisions: documented(
      z.array(RevisionLink),
      'The revisions asked for of this order, oldest first (`POST /orders/{id}/revisions`). Once one is `completed` it replaces this order: a further revision is asked of it.',
    ),
    revision_window_closes_at: documented(
      Timestamp.nullable(),
      'The end of the free-revision window: 30 days after the first delivery of this work (for a revision, of the order its chain began with; a revision never restarts the 30 days). Null until the work is first delivered.',
    ),
    reference_file_ids: documented(
      z.array(Id),
      'For a revision: the reference files given with the request (readable with `GET /files/{id}`); they are not among `files`, never translated or delivered.',
    ),
    legal_hold: documented(
      z.boolean(),
      "True while the order is under a legal hold: its documents are kept whatever the account's retention period.",
    ),
    legal_hold_by_staff: documented(
      z.boolean(),
      'True when the operator placed the legal hold (a subpoena, a court order): then only the operator releases it. False when the account placed it, or there is none.',
    ),
    documents_deleted_at: documented(
      Timestamp.nullable(),
      "When the order's documents (sources, translations, reference files) were deleted, under the account's retention period or by `DELETE /orders/{id}/documents` (UTC); null while they are kept. The certificate and the invoice stay; a file another open order still uses is kept for it.",
    ),
    due_at: documented(
      Timestamp.nullable(),
      "When delivery is promised (UTC): payment plus 2 hours with `rush_2h`, otherwise payment plus the operator's turnaround (48 hours unless configured). Null until paid.",
    ),
    completed_at: documented(Timestamp.nullable(), 'When the order was completed (UTC); null before.'),
    cancelled_at: documented(Timestamp.nullable(), 'When it was cancelled (UTC); null unless cancelled.'),
    created_at: Timestamp.describe('When the quote was converted (UTC).'),
    updated_at: Timestamp.describe('Last change of the order (UTC).'),
  }),
);

export type OrderJson = z.output<typeof Order>;
