import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { requireAccountId } from '../accounts/authentication.service';
import type { Ctx } from '../shared/context';
import { NotFoundError } from '../../shared/errors';
import { isId } from '../shared/ids';
import { Validator } from '../shared/validation';

/**
 * What a client's checkout renewal asks (D29): its own order or booking by id, read fresh (404 for anything else, as
 * D2 says), and where the payer should return, if given.
 */
export async function readRenewalRequest<E extends object>(
  ctx: Ctx,
  entity: EntityName<E>,
  id: unknown,
  input: { redirect_url?: unknown },
  operation: 'orders.renew_checkout' | 'bookings.renew_checkout',
): Promise<{ current: E; redirectUrl: string | undefined }> {
  const accountId = requireAccountId(ctx.actor, operation);
  const v = new Validator(input);
  const redirectUrl = v.httpUrl('redirect_url');
  v.done();
  if (!isId(id)) throw new NotFoundError();
  const current = await ctx.em.findOne(entity, { id, account: accountId } as FilterQuery<E>, { refresh: true });
  if (!current) throw new NotFoundError();
  return { current, redirectUrl };
}
