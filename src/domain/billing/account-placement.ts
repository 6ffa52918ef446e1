import type { EntityManager } from '@mikro-orm/core';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { Account, BillingTerms } from '../identity/account.entity';
import type { Payment } from '../payments/payment.entity';
import type { AccountPlacement } from '../payments/payment.service';
import { formatMoney } from '../shared/money';
import { accountExposure, accountOfPayment, lockAccountPlacements } from './account-billing.queries';

/**
 * Why work of `amountCents` cannot be placed on `account`'s terms now (D31), in words for the person placing it, or
 * null when it can: the account pays at the checkout, an invoice is overdue, or the total would pass the credit limit
 * (open invoices + work on account not invoiced yet + this).
 */
export async function placementRefusal(
  em: EntityManager,
  account: Account,
  amountCents: number,
): Promise<string | null> {
  if (account.billingTerms === BillingTerms.CHECKOUT)
    return 'This account pays each order at the checkout: it has no terms to place work on account.';
  const exposure = await accountExposure(em, account.id, new Date());
  if (exposure.overdue)
    return 'An invoice of this account is overdue: nothing more can be placed on account until it is paid. Pay this one by card instead.';
  const owed = exposure.openCents + exposure.uninvoicedCents;
  if (owed + amountCents > account.creditLimitCents) {
    const room = Math.max(0, account.creditLimitCents - owed);
    return `This would pass the account's credit limit of ${formatMoney(account.creditLimitCents, 'USD')}: ${formatMoney(room, 'USD')} is left on account. Pay this one by card instead.`;
  }
  return null;
}

/** The account of an order's or booking's payment, with a refusal to place it (as `placementRefusal`). */
export async function paymentPlacementRefusal(em: EntityManager, payment: Payment): Promise<string | null> {
  const accountId = await accountOfPayment(em, payment.id);
  const account = accountId && (await em.findOne(Account, { id: accountId }, { refresh: true }));
  if (!account) throw new NotFoundError();
  return placementRefusal(em, account, payment.amountCents);
}

/**
 * The check a placement makes in its own transaction: the account's placements are locked first, so two of one
 * account are counted one after the other and together never pass the limit (D31); a refusal is 422 `terms`.
 */
export const accountPlacement: AccountPlacement = {
  async assertRoom(em, payment) {
    const accountId = await accountOfPayment(em, payment.id);
    if (!accountId) throw new NotFoundError();
    await lockAccountPlacements(em, accountId);
    const refusal = await paymentPlacementRefusal(em, payment);
    if (refusal) throw ValidationError.of('terms', refusal);
  },
};
