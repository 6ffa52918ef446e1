import type { EntityManager } from '@mikro-orm/core';
import type { Mailer } from '../../providers/mail/mailer';
import { accountOf } from '../identity/account-of';
import type { MoveCause } from '../lifecycle/lifecycle';
import { cancelRefund } from '../payments/cancel-refund';
import { staffCancelledEmail } from './staff-action-messages';

/**
 * D28: when staff cancel an order or a booking, the account is told why and whether money goes back, and how much
 * (`cancelRefund`), with the sentence naming a fee the cancel kept (D32). Heard in the cancelling transaction, so the
 * e-mail exists exactly when the cancel does; a cancel by anyone else tells no one here.
 */
export async function tellStaffCancel(
  em: EntityManager,
  mailer: Mailer,
  row: { account: { id: string }; payment: { id: string } | null },
  what: string,
  cause: MoveCause,
  /** When a booking was to start, in its offset with UTC (D29). */
  when?: string,
): Promise<void> {
  if (cause.actor?.kind !== 'staff') return;
  const refund = await cancelRefund(em, row, cause);
  await mailer.send(
    em,
    staffCancelledEmail(await accountOf(em, row), what, cause.reason, refund, cause.settlement?.note, when),
  );
}
