import type { StoredFile } from '../files/file.entity';
import type { Account } from '../identity/account.entity';
import type { StaffUser } from '../identity/staff-user.entity';
import type { PaymentRead } from '../payments/payment-read';
import type { Payment } from '../payments/payment.entity';
import type { Order } from './order.entity';

/** What the answer about an order shows: an `Order` entity is one, and so is the polled read (`src/domain/orders/polled-orders.queries.ts`). */
export type OrderRead = Pick<
  Order,
  | 'id'
  | 'number'
  | 'status'
  | 'serviceType'
  | 'sourceLanguage'
  | 'targetLanguage'
  | 'unitType'
  | 'unitCount'
  | 'documentPages'
  | 'scannedPages'
  | 'subtotalCents'
  | 'addons'
  | 'addonsTotalCents'
  | 'totalCents'
  | 'currency'
  | 'reference'
  | 'purchaseOrder'
  | 'holdReason'
  | 'dueAt'
  | 'completedAt'
  | 'cancelledAt'
  | 'createdAt'
  | 'updatedAt'
  | 'shippingAddress'
  | 'shipmentCarrier'
  | 'shipmentTrackingNumber'
  | 'shippedAt'
  | 'placedBy'
  | 'revisionReason'
  | 'instructions'
  | 'legalHold'
  | 'legalHoldReason'
  | 'legalHoldByStaff'
  | 'documentsDeletedAt'
  | 'revisionWindowFrom'
> & {
  quote: { id: string };
  payment: PaymentRead;
  /** The issued certificate's verification code (D29), read with the polled order: null when none; absent on an entity. */
  certificateCode?: string | null;
  /** D30, read with the polled order; absent on an entity. The order this one revises, or null. */
  revisionOf?: RevisionLink | null;
  /** D30: this order's revisions, oldest first; absent on an entity. */
  revisions?: RevisionLink[];
  /** D30: the reference files the client gave with a revision request; absent on an entity. */
  referenceFileIds?: string[];
};

/** Another order, named: its id and its number. */
export interface OrderLink {
  id: string;
  number: string;
}

/** An order a revision chain links (D30), named, with its status: a revision is open until completed or cancelled. */
export interface RevisionLink extends OrderLink {
  status: Order['status'];
}

export type OrderFileRead = Pick<StoredFile, 'id' | 'type' | 'name' | 'purgeReason'>;

export interface OrderView {
  order: OrderRead;
  files: OrderFileRead[];
}

/** An order as polled: its answer and the version its `ETag` is made from (D23). */
export interface PolledOrder extends OrderView {
  version: string;
}

/**
 * An order as the staff desk's list shows it: its answer, with its account and its assignee, read with it, and its
 * payment's entity, whose books staff see (D26).
 */
export type StaffOrderRead = Omit<OrderRead, 'payment'> & {
  payment: Payment;
  account: Account;
  assignee: StaffUser | null;
};

export interface StaffOrderView {
  order: StaffOrderRead;
  files: OrderFileRead[];
}

/** The desk's named queues: work waiting for one kind of person. */
export enum StaffOrderQueue {
  /** Processing certified orders with a source only a person can translate (D30). */
  NEEDS_TRANSLATION = 'needs_translation',
}
