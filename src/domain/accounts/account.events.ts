import type { Account } from '../identity/account.entity';

/**
 * What happened to an account that other areas act on, raised in the transaction that did it (docs/architecture.md
 * "Domain events"): a key issued, on approval or regenerated. The key travels only here, to the message that shows it
 * once (D13).
 */
export interface AccountEvent {
  kind: 'key_issued';
  account: Account;
  apiKey: string;
  reason: 'approved' | 'regenerated';
}
