import { ForbiddenError } from '../../shared/errors';
import type { AccountActor } from './context';
import { MemberRole } from './member.entity';

/** Who may call a partner operation: the account's API key, or a member's session with its role (D27). */
export type PartnerCaller = 'api_key' | MemberRole;

const EVERYONE: readonly PartnerCaller[] = ['api_key', MemberRole.ADMIN, MemberRole.MEMBER, MemberRole.VIEWER];
const WORKERS: readonly PartnerCaller[] = ['api_key', MemberRole.ADMIN, MemberRole.MEMBER];
const ADMINS: readonly PartnerCaller[] = [MemberRole.ADMIN];
const KEY_AND_ADMINS: readonly PartnerCaller[] = ['api_key', MemberRole.ADMIN];
const MEMBERS: readonly PartnerCaller[] = [MemberRole.ADMIN, MemberRole.MEMBER, MemberRole.VIEWER];

/**
 * THE table: every partner operation, on both doors, and who may call it (D27). `viewer` reads; `member` also does
 * the work (files, quotes, orders, bookings, cancels); `admin` also manages people. People are managed by a signed-in
 * admin, not by the key: an invitation or a removal names the person who made it. A service asks here before it
 * reads anything, so a refusal never depends on whether the id exists.
 */
export const PARTNER_PERMISSIONS = {
  'account.read': EVERYONE,
  'files.read': EVERYONE,
  'files.upload': WORKERS,
  'files.delete': WORKERS,
  'quotes.read': EVERYONE,
  'quotes.create': WORKERS,
  'quotes.delete': WORKERS,
  'orders.read': EVERYONE,
  'orders.convert': WORKERS,
  'orders.cancel': WORKERS,
  'orders.set_shipping_address': WORKERS,
  'orders.renew_checkout': WORKERS,
  'orders.request_revision': WORKERS,
  'orders.message': WORKERS,
  // D33: a client deletes a finished order's documents now; admins decide how long they are kept, and holds.
  'orders.delete_documents': KEY_AND_ADMINS,
  'orders.legal_hold': ADMINS,
  'bookings.read': EVERYONE,
  'bookings.create': WORKERS,
  'bookings.cancel': WORKERS,
  'bookings.renew_checkout': WORKERS,
  'invoices.read': EVERYONE,
  'account.key.manage': ADMINS,
  'account.retention': ADMINS,
  'members.read': ADMINS,
  'members.manage': ADMINS,
  'session.sign_out': MEMBERS,
} as const satisfies Record<string, readonly PartnerCaller[]>;

export type PartnerOperation = keyof typeof PARTNER_PERMISSIONS;

export const isPartnerOperation = (name: string): name is PartnerOperation => Object.hasOwn(PARTNER_PERMISSIONS, name);

export const ROLE_FORBIDDEN = 'This action is not allowed for your role.';

export const callerOf = (actor: AccountActor): PartnerCaller => actor.member?.role ?? 'api_key';

export const mayCall = (caller: PartnerCaller, operation: PartnerOperation): boolean =>
  PARTNER_PERMISSIONS[operation].includes(caller);

/** 403 (FORBIDDEN) unless the caller's role may call the operation. */
export function authorizePartner(actor: AccountActor, operation: PartnerOperation): AccountActor {
  if (!mayCall(callerOf(actor), operation)) throw new ForbiddenError(ROLE_FORBIDDEN);
  return actor;
}
