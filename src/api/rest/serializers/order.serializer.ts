import type { ReceiptService } from '../../../domain/billing/receipts';
import type { FilesService } from '../../../domain/files/files.service';
import type { OrderView } from '../../../domain/orders/order-read';
import type { Services } from '../../../services';
import { formatOptionalTimestamp, formatTimestamp } from '../../format';
import { shipmentOf, shippingAddressRequired, type Shipment } from '../../../domain/orders/shipment';
import { orderCertificate } from '../../../domain/certification/order-certificate';
import { revisionWindowClosesAt } from '../../../domain/orders/revision-window';
import { serializePayment } from './payment.serializer';
import { serializePricedWork } from './priced-work.serializer';
import type { OrderJson } from '../responses/order.response';

/**
 * An order as `getOrder` answers it, with D10's fields; translation and certificate entries carry fresh signed links, and a completed
 * certified order its certificate's verification (D29), read with the order.
 */
export function serializeOrder(
  { order, files }: OrderView,
  filesService: FilesService,
  verifyUrl: (code: string) => string,
  receipts: ReceiptService,
): OrderJson {
  const certificate = orderCertificate(order, order.certificateCode ?? null, verifyUrl);
  return {
    id: order.id,
    number: order.number,
    status: order.status,
    ...serializePricedWork(order),
    quote_id: order.quote.id,
    files: files.map((file) => {
      // Which files get a link is the files service's rule (D5); an entry without one has no download_url.
      const link = filesService.downloadUrl(file);
      return { id: file.id, type: file.type, name: file.name, ...(link === null ? {} : { download_url: link }) };
    }),
    payment: serializePayment(order.payment, receipts.receiptUrl(order.payment)),
    hold_reason: order.holdReason,
    shipping_address_required: shippingAddressRequired(order),
    shipment: serializeShipment(shipmentOf(order)),
    certificate: certificate && { verification_code: certificate.verificationCode, verify_url: certificate.verifyUrl },
    // D30: added fields, so v1 clients that do not know them are unaffected (D4).
    revision_of: order.revisionOf ? { id: order.revisionOf.id, number: order.revisionOf.number } : null,
    revision_reason: order.revisionReason,
    revisions: (order.revisions ?? []).map(({ id, number, status }) => ({ id, number, status })),
    revision_window_closes_at: formatOptionalTimestamp(revisionWindowClosesAt(order)),
    reference_file_ids: order.referenceFileIds ?? [],
    // D33, added fields likewise.
    legal_hold: order.legalHold,
    legal_hold_by_staff: order.legalHoldByStaff,
    documents_deleted_at: formatOptionalTimestamp(order.documentsDeletedAt),
    due_at: formatOptionalTimestamp(order.dueAt),
    completed_at: formatOptionalTimestamp(order.completedAt),
    cancelled_at: formatOptionalTimestamp(order.cancelledAt),
    created_at: formatTimestamp(order.createdAt),
    updated_at: formatTimestamp(order.updatedAt),
  };
}

const serializeShipment = (shipment: Shipment | null) =>
  shipment && {
    carrier: shipment.carrier,
    tracking_number: shipment.trackingNumber,
    shipped_at: formatTimestamp(shipment.shippedAt),
  };

/** `serializeOrder` with what it needs from the services, for every route that answers an order. */
export const orderSerializer =
  ({ files, certificates, receipts }: Pick<Services, 'files' | 'certificates' | 'receipts'>) =>
  (view: OrderView) =>
    serializeOrder(view, files, (code) => certificates.verificationUrl(code), receipts);
