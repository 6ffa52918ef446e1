import type { Schema } from './components';

type Operation = { operationId?: string; responses: Record<string, unknown> };

/** An operation on the resource the answer names, by the id at `data.id` of its body. */
const byAnsweredId = (operationId: string, description: string): Schema => ({
  operationId,
  parameters: { id: '$response.body#/data/id' },
  description,
});

/** Where each answer leads (OpenAPI links), so generated clients and stateful tools can follow the workflow. */
const LINKS: Record<string, Record<string, Schema>> = {
  uploadFile: {
    GetFile: byAnsweredId('getFile', 'Poll the upload until its analysis is done.'),
    DeleteFile: byAnsweredId('deleteFile', 'Delete it while nothing uses it.'),
  },
  createQuote: {
    GetQuote: byAnsweredId('getQuote', 'Read the quote again.'),
    ConvertQuote: byAnsweredId('convertQuote', 'Order it: the answer carries the checkout.'),
    DeleteQuote: byAnsweredId('deleteQuote', 'Discard it.'),
  },
  convertQuote: {
    GetOrder: byAnsweredId('getOrder', 'Poll the order.'),
    CancelOrder: byAnsweredId('cancelOrder', 'Cancel it.'),
    RenewOrderCheckout: byAnsweredId('renewOrderCheckout', 'A new checkout when the first one expired.'),
    SetOrderShippingAddress: byAnsweredId('setOrderShippingAddress', 'Where its hard copies go.'),
  },
  createBooking: {
    GetBooking: byAnsweredId('getBooking', 'Poll the booking.'),
    CancelBooking: byAnsweredId('cancelBooking', 'Cancel it.'),
    RenewBookingCheckout: byAnsweredId('renewBookingCheckout', 'A new checkout when the first one expired.'),
  },
};

/** The paths with each operation's success answer carrying its links. */
export function withLinks<P extends Record<string, Record<string, Operation>>>(paths: P): P {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => {
          const links = operation.operationId && LINKS[operation.operationId];
          if (!links) return [method, operation];
          const success = Object.keys(operation.responses).find((status) => status.startsWith('2'))!;
          const responses = {
            ...operation.responses,
            [success]: { ...(operation.responses[success] as Schema), links },
          };
          return [method, { ...operation, responses }];
        }),
      ),
    ]),
  ) as P;
}
