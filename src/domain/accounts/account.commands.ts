import { z } from 'zod';
import { email, oneOf, text } from '../shared/command-fields';
import { pageFields } from '../shared/pagination';
import { AccountStatus } from '../identity/account.entity';

/** Staff's `createAccount`: a pending account, approved later (D13). */
export const createAccountCommand = z.object({
  name: text({ required: true, max: 255 }),
  email: email({ required: true }),
});
export type CreateAccount = z.output<typeof createAccountCommand>;

/** Staff's `accounts`: newest first, of one status when asked (D3). */
export const listAccountsCommand = z.object({ status: oneOf(Object.values(AccountStatus)), ...pageFields });
export type ListAccounts = z.output<typeof listAccountsCommand>;
