import type { Account } from '../identity/account.entity';
import type { AccountMember } from '../identity/member.entity';

/**
 * What happened to an account's people that other areas act on, raised in the transaction that did it
 * (docs/architecture.md "Domain events"): an admin invited someone (D27), named as the invitation names them.
 */
export interface MemberEvent {
  kind: 'invited';
  account: Account;
  member: AccountMember;
  invitedBy: string;
}
