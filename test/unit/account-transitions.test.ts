import { Account, AccountStatus } from '../../src/domain/identity/account.entity';
import { accountTransitions } from '../../src/domain/accounts/account.states';
import { everyPair, reachable, STAFF } from '../helpers/transitions';

const { PENDING, APPROVED, SUSPENDED } = AccountStatus;
const account = (status: AccountStatus) => Object.assign(new Account(), { status });

/** D13, written out here so that a change to the table has to change this list too. */
const MOVES = [
  [PENDING, APPROVED],
  [APPROVED, SUSPENDED],
  [SUSPENDED, APPROVED],
] as const;

describe('the account transition table', () => {
  it('has every account status, starts in pending and reaches every status from there', () => {
    expect([...accountTransitions.states].sort()).toEqual(Object.values(AccountStatus).sort());
    expect(accountTransitions.initial).toBe(PENDING);
    expect(reachable(accountTransitions).sort()).toEqual(Object.values(AccountStatus).sort());
    expect(accountTransitions.terminal).toEqual([]);
  });

  it.each(everyPair(accountTransitions, MOVES))(
    '$from -> $to is allowed: $allowed (no guard)',
    ({ from, to, allowed }) => {
      expect(accountTransitions.allows(from, to)).toBe(allowed);
      const refusal = accountTransitions.refusal(from, to, account(from), STAFF, 'change the account');
      expect(refusal).toBe(allowed ? undefined : `Cannot change the account while the status is ${from}.`);
    },
  );

  it('regenerates the key of an approved or suspended account, never of a pending one (its first comes with the approval)', () => {
    expect(
      Object.fromEntries(
        Object.values(AccountStatus).map((status) => [
          status,
          accountTransitions.actionRefusal('regenerate_key', account(status)),
        ]),
      ),
    ).toEqual({
      [PENDING]: 'Cannot regenerate the API key while the status is pending.',
      [APPROVED]: undefined,
      [SUSPENDED]: undefined,
    });
  });
});
