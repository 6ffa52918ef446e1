import type { GraphQLResolveInfo } from 'graphql';
import { approvedAccount, requireAccountId, requireStaff } from '../../domain/identity/guards';
import { isPartnerOperation } from '../../domain/identity/partner-permissions';
import { isStaffOperation, requireStaffMayRead } from '../../domain/identity/staff-permissions';
import { ForbiddenError } from '../../shared/errors';
import type { GraphQLContext } from './context';

/**
 * The roles resolvers name in @Authorized(...): which staff role may run a STAFF field is the permission table's. A
 * partner operation of its table (`'quotes.create'`) may be named instead of ACCOUNT, for a field that reads input:
 * the caller's role is then checked before the input is read, as REST's `permit` does (D27); a field that is either
 * of two operations names both, and the caller must be allowed each.
 */
export const Role = { ACCOUNT: 'ACCOUNT', STAFF: 'STAFF', READ_LIMITED: 'READ_LIMITED' } as const;

/** How the permission table names a field: a root field by its name, any other as `Type.field`. */
export function staffOperationName(parentType: string, fieldName: string): string {
  return parentType === 'Query' || parentType === 'Mutation' ? fieldName : `${parentType}.${fieldName}`;
}

/**
 * One checker for both halves, reusing the same rules as REST: it throws the precise error
 * (UNAUTHENTICATED or FORBIDDEN) or lets the field run. Every staff field goes through the one permission table
 * (D28); a staff field the table does not name is refused to everyone. Run before each field `@Authorized` names
 * roles for (authorized.ts).
 */
export function authChecker(context: GraphQLContext, info: GraphQLResolveInfo, roles: readonly string[]): void {
  const actor = context.ctx.actor;
  const partnerOperations = roles.filter(isPartnerOperation);
  if (partnerOperations.length || roles.includes(Role.ACCOUNT)) {
    // A known staff credential is not a missing one (D28): refused, not asked to authenticate. (REST v1 has no
    // staff part at all and answers a staff token 401, D13.)
    if (actor?.kind === 'staff') throw new ForbiddenError('Staff credentials cannot act for an account.');
    approvedAccount(actor);
    for (const operation of partnerOperations) requireAccountId(actor, operation);
    return;
  }
  const operation = staffOperationName(info.parentType.name, info.fieldName);
  if (roles.includes(Role.READ_LIMITED)) {
    // A field clients read on their own records; staff read it when their role may (STAFF_READ_LIMITS, D28).
    if (actor?.kind === 'staff') requireStaffMayRead(actor.staff.role, operation);
    return;
  }
  requireStaff(actor);
  if (!isStaffOperation(operation)) throw new ForbiddenError(`${operation} is not in the staff permission table.`);
  requireStaff(actor, operation);
}
