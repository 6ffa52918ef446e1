import type { AuthChecker } from 'type-graphql';
import { requireAccountId, requireStaff } from '../../domain/accounts/authentication.service';
import { StaffRole } from '../../domain/staff/staff-user.entity';
import type { GraphQLContext } from './context';

/** The roles resolvers name in @Authorized(...). */
export const Role = { ACCOUNT: 'ACCOUNT', STAFF: 'STAFF', ADMIN: 'ADMIN' } as const;

/**
 * One checker for both halves, reusing the same rules as REST: it throws the precise error
 * (UNAUTHENTICATED or FORBIDDEN) rather than answering false.
 */
export const authChecker: AuthChecker<GraphQLContext> = ({ context }, roles) => {
  const actor = context.ctx.actor;
  if (roles.includes(Role.ACCOUNT)) requireAccountId(actor);
  else if (roles.includes(Role.ADMIN)) requireStaff(actor, StaffRole.ADMIN);
  else requireStaff(actor);
  return true;
};
