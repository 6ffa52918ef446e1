import { StaffRole } from './staff-user.entity';
import { ForbiddenError } from '../../shared/errors';

const { ADMIN, DESK, TRANSLATOR } = StaffRole;
const EVERY_ROLE = [ADMIN, DESK, TRANSLATOR] as const;
const THE_DESK = [ADMIN, DESK] as const;
const ADMINS = [ADMIN] as const;

/**
 * D28, the one table of which staff role may do what. Keys are the staff operations as the GraphQL door names
 * them (a query or mutation, or `Type.field` for a staff-only field); the door's checker looks every staff field
 * up here, and services repeat the look-up for their own callers. An operation missing here is refused to all.
 * A translator's operations are further limited, in the services, to the orders assigned to them.
 */
export const STAFF_PERMISSIONS = {
  // Everyone's own.
  staffMe: EVERY_ROLE,
  rotateStaffToken: EVERY_ROLE,
  updateStaffProfile: EVERY_ROLE,
  // Orders: translators see and work on their own assignments.
  staffOrders: EVERY_ROLE,
  staffOrder: EVERY_ROLE,
  'Order.assignee': EVERY_ROLE,
  'Order.notes': EVERY_ROLE,
  'Order.reviews': EVERY_ROLE,
  'Order.notarization': EVERY_ROLE,
  attachReviewedTranslation: EVERY_ROLE,
  approveTranslation: EVERY_ROLE,
  completeCertifiedOrder: EVERY_ROLE,
  postStaffOrderMessage: EVERY_ROLE,
  // The order desk.
  'Order.account': THE_DESK,
  holdOrder: THE_DESK,
  releaseOrder: THE_DESK,
  staffCancelOrder: THE_DESK,
  refundOrder: THE_DESK,
  assignOrder: THE_DESK,
  addOrderNote: THE_DESK,
  recordNotarization: THE_DESK,
  markShipped: THE_DESK,
  setLegalHold: THE_DESK,
  'Payment.status': THE_DESK,
  'Payment.capturedCents': THE_DESK,
  'Payment.refundPendingCents': THE_DESK,
  'Payment.currency': THE_DESK,
  'Payment.refundRefusal': THE_DESK,
  // The booking desk.
  staffInterpretationBookings: THE_DESK,
  staffInterpretationBooking: THE_DESK,
  'InterpretationBooking.account': THE_DESK,
  'InterpretationBooking.notes': THE_DESK,
  confirmInterpretationAvailability: THE_DESK,
  completeInterpretationBooking: THE_DESK,
  holdInterpretationBooking: THE_DESK,
  releaseInterpretationBooking: THE_DESK,
  staffCancelInterpretationBooking: THE_DESK,
  refundInterpretationBooking: THE_DESK,
  addBookingNote: THE_DESK,
  assignInterpreter: THE_DESK,
  replaceInterpreter: THE_DESK,
  'InterpretationBooking.cancellationFeeNow': THE_DESK,
  rescheduleInterpretationBooking: THE_DESK,
  // The interpreters the desk keeps (D32).
  interpreters: THE_DESK,
  createInterpreter: THE_DESK,
  updateInterpreter: THE_DESK,
  // Reading the desk's records.
  accounts: THE_DESK,
  accountMembers: THE_DESK,
  staffUsers: THE_DESK,
  auditLog: THE_DESK,
  sentEmails: THE_DESK,
  staffInvoices: THE_DESK,
  'Invoice.account': THE_DESK,
  // Admins: staff people, rates, and the account life cycle with its keys.
  createStaffUser: ADMINS,
  deactivateStaffUser: ADMINS,
  updateOtherStaffProfile: ADMINS,
  changeStaffRole: ADMINS,
  updateRate: ADMINS,
  createAccount: ADMINS,
  approveAccount: ADMINS,
  suspendAccount: ADMINS,
  regenerateApiKey: ADMINS,
  revokeApiKey: ADMINS,
  setAccountRetention: ADMINS,
  setAccountBilling: ADMINS,
  closeInvoices: ADMINS,
  recordInvoicePayment: ADMINS,
  voidInvoice: ADMINS,
} as const satisfies Record<string, readonly StaffRole[]>;

export type StaffOperation = keyof typeof STAFF_PERMISSIONS;

/**
 * Fields of types clients read too (their own orders), which only some staff roles may read: a translator learns
 * nothing about money (D28). Clients are not limited by this table; the schema walk in the permission tests checks
 * that every field named here exists and is refused to exactly the roles left out.
 */
export const STAFF_READ_LIMITS = {
  'Order.subtotalCents': THE_DESK,
  'Order.addonsTotalCents': THE_DESK,
  'Order.totalCents': THE_DESK,
  'Order.currency': THE_DESK,
  'Order.addons': THE_DESK,
  'Order.payment': THE_DESK,
} as const satisfies Record<string, readonly StaffRole[]>;

export type LimitedField = keyof typeof STAFF_READ_LIMITS;

/** Refuses a staff role a field that clients read too, when STAFF_READ_LIMITS leaves the role out; other fields are open. */
export function requireStaffMayRead(role: StaffRole, field: string): void {
  if (!Object.hasOwn(STAFF_READ_LIMITS, field)) return;
  if (!(STAFF_READ_LIMITS[field as LimitedField] as readonly StaffRole[]).includes(role))
    throw new ForbiddenError(`The ${role} role may not read ${field}.`);
}

export const isStaffOperation = (name: string): name is StaffOperation => Object.hasOwn(STAFF_PERMISSIONS, name);

export function mayPerform(role: StaffRole, operation: StaffOperation): boolean {
  return (STAFF_PERMISSIONS[operation] as readonly StaffRole[]).includes(role);
}

/** A translator works only on the orders assigned to them (D28). */
export const assignedOrdersOnly = (role: StaffRole): boolean => role === TRANSLATOR;

/** Refuses a translator work on an order assigned to someone else (or to no one). */
export function requireAssigned(staff: { id: string; role: StaffRole }, assigneeId: string | null | undefined): void {
  if (assignedOrdersOnly(staff.role) && assigneeId !== staff.id)
    throw new ForbiddenError('The order is not assigned to you.');
}
