import type { EntityManager } from '@mikro-orm/core';
import { lockEmailIdentity } from './email-identity-lock.queries';
import { Account } from './account.entity';
import { AccountMember, MemberStatus } from './member.entity';
import { StaffUser } from './staff-user.entity';

/** Who an e-mail belongs to (D36): a staff user, a live member of an account, or an account's own e-mail. */
export type EmailHolder =
  | { kind: 'staff' }
  | { kind: 'member'; accountId: string; accountName: string }
  | { kind: 'account'; accountId: string; accountName: string };

/**
 * Locks the e-mail for the caller's transaction (`em` must be in one) and says who holds it now, staff first, then a
 * live member, then an account's own e-mail (pending and suspended accounts included): what a caller then adds for
 * this e-mail is decided against a holder that cannot change before it commits.
 */
export async function claimEmail(em: EntityManager, email: string): Promise<EmailHolder | null> {
  await lockEmailIdentity(em, email);
  // Deactivated staff keep their e-mail: the unique index keeps it theirs, and a sign-in must never land elsewhere.
  if (await em.count(StaffUser, { email })) return { kind: 'staff' };
  const member = await em.findOne(
    AccountMember,
    { email, status: { $ne: MemberStatus.REMOVED } },
    { populate: ['account'], fields: ['account.id', 'account.name'] },
  );
  if (member) return { kind: 'member', accountId: member.account.id, accountName: member.account.name };
  const account = await em.findOne(Account, { email }, { fields: ['id', 'name'] });
  return account && { kind: 'account', accountId: account.id, accountName: account.name };
}

/** Staff's reason, naming the other account: staff may know it, an account's admin may not (D36). */
export function heldElsewhere(holder: EmailHolder): string {
  return holder.kind === 'staff'
    ? 'This e-mail belongs to a staff user.'
    : holder.kind === 'member'
      ? `This e-mail is already a member of the account "${holder.accountName}" (${holder.accountId}).`
      : `This e-mail is the e-mail of the account "${holder.accountName}" (${holder.accountId}).`;
}
