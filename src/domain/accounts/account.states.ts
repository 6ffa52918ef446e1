import { cannot, defineTransitions } from '../lifecycle/state-machine';
import { AccountStatus, type Account } from '../identity/account.entity';

/** What staff do to an account in place, without moving it. */
export type AccountAction = 'regenerate_key';

/** A suspended account is reinstated by approving it again (D13). */
export const accountTransitions = defineTransitions<AccountStatus, Account, AccountAction>({
  initial: AccountStatus.PENDING,
  moves: {
    [AccountStatus.PENDING]: [AccountStatus.APPROVED],
    [AccountStatus.APPROVED]: [AccountStatus.SUSPENDED],
    [AccountStatus.SUSPENDED]: [AccountStatus.APPROVED],
  },
  actions: {
    // A pending account has no key yet: its first comes with the approval.
    regenerate_key: (account) =>
      account.status === AccountStatus.PENDING ? cannot('regenerate the API key', account.status) : undefined,
  },
});
