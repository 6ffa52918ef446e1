import type { FilesService } from '../../../domain/files/files.service';
import type { OrderView } from '../../../domain/orders/order-read';
import { formatOptionalTimestamp, formatTimestamp } from '../../format';
import { shipmentOf, type Shipment } from '../../../domain/orders/shipment';
import { serializePayment } from './payment.serializer';
import { serializePricedWork } from './priced-work.serializer';

/** Contract 2.6 plus D10's fields; translation and certificate entries carry fresh signed links. */
export function serializeOrder({ order, files }: OrderView, filesService: FilesService) {
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
    payment: serializePayment(order.payment),
    hold_reason: order.holdReason,
    shipment: serializeShipment(shipmentOf(order)),
    due_at: formatOptionalTimestamp(order.dueAt),
    completed_at: formatOptionalTimestamp(order.completedAt),
    cancelled_at: formatOptionalTimestamp(order.cancelledAt),
    created_at: formatTimestamp(order.createdAt),
    updated_at: formatTimestamp(order.updatedAt),
  };
}

const serializeShipment = (shipment: Shipment | null) =>
  shipment && { carrier: shipment.carrier, tracking_number: shipment.trackingNumber, shipped_at: formatTimestamp(shipment.shippedAt) };
