import type { Mailer } from '../../providers/mail/mailer';
import type { AccountEvent } from '../accounts/account.events';
import type { Subscriber } from '../shared/event-hub';
import { apiKeyEmail } from './messages';

/** A key issued is e-mailed to the account, the only place it is ever shown (D13). */
export function tellAccountOfKey(mailer: Mailer): Subscriber<AccountEvent> {
  return (em, { account, apiKey, reason }) => mailer.send(em, apiKeyEmail(account, apiKey, reason));
}
