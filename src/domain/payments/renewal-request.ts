import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { requireAccountId } from '../identity/guards';
import type { Ctx } from '../identity/context';
import { NotFoundError } from '../../shared/errors';
import { isId } from '../shared/ids';

/**
 * The work a client's checkout renewal is for (D29): its own order or booking by id, read fresh (404 for anything
 * else, as D2 says).
 */
export async function readRenewalRequest<E extends object>(
  ctx: Ctx,
  entity: EntityName<E>,
  id: unknown,
  operation: 'orders.renew_checkout' | 'bookings.renew_checkout',
): Promise<E> {
  const accountId = requireAccountId(ctx.actor, operation);
  if (!isId(id)) throw new NotFoundError();
  const current = await ctx.em.findOne(entity, { id, account: accountId } as FilterQuery<E>, { refresh: true });
  if (!current) throw new NotFoundError();
  return current;
}
