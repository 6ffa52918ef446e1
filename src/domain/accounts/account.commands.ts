import { z } from 'zod';
import { email, integer, oneOf, text } from '../shared/command-fields';
import { pageFields } from '../shared/pagination';
import { AccountStatus, BillingTerms } from '../identity/account.entity';

/** Staff's `createAccount`: a pending account, approved later (D13). */
export const createAccountCommand = z.object({
  name: text({ required: true, max: 255 }),
  email: email({ required: true }),
});
export type CreateAccount = z.output<typeof createAccountCommand>;

/** Staff's `accounts`: newest first, of one status when asked (D3), and `search` in the name or e-mail. */
export const listAccountsCommand = z.object({
  status: oneOf(Object.values(AccountStatus)),
  search: text({ max: 255 }),
  ...pageFields,
});
export type ListAccounts = z.output<typeof listAccountsCommand>;

/** The largest credit limit staff may set: ten million dollars, in cents. */
const MAX_CREDIT_LIMIT_CENTS = 1_000_000_000;

/** Admin staff's `setAccountBilling` (D31): checkout or net terms, the credit limit, whether a purchase order is required. */
export const setAccountBillingCommand = z.object({
  terms: oneOf(Object.values(BillingTerms), { required: true }),
  creditLimitCents: integer({ required: true, min: 0, max: MAX_CREDIT_LIMIT_CENTS }),
  purchaseOrderRequired: z.boolean(),
});
export type SetAccountBilling = z.output<typeof setAccountBillingCommand>;
