import type { EntityManager } from '@mikro-orm/core';
import { Account } from './account.entity';

/** The account a row belongs to, loaded (from the identity map when already there), for e-mail. */
export const accountOf = (em: EntityManager, row: { account: { id: string } }) =>
  em.findOneOrFail(Account, { id: row.account.id });
