import { defineTransitions } from '../shared/state-machine';
import { AccountStatus } from './account.entity';

/** A suspended account is reinstated by approving it again. */
export const accountTransitions = defineTransitions<AccountStatus>({
  [AccountStatus.PENDING]: [AccountStatus.APPROVED],
  [AccountStatus.APPROVED]: [AccountStatus.SUSPENDED],
  [AccountStatus.SUSPENDED]: [AccountStatus.APPROVED],
});
