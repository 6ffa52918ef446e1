import DataLoader from 'dataloader';
import type { OrderFileRead } from '../../domain/orders/order-read';
import type { Ctx } from '../../domain/shared/context';
import type { Services } from '../../services';

/** What every resolver gets: the request's service context, the shared services, and per-request batch loaders. */
export interface GraphQLContext {
  ctx: Ctx;
  services: Services;
  loaders: Loaders;
  /** The rate-limit bucket this request spends from (D24); null for staff, whose tools are not limited. */
  budget: string | null;
}

export interface Loaders {
  /** The files of many orders in one query: a list of orders never costs a query per order. */
  orderFiles: DataLoader<string, OrderFileRead[]>;
}

export function createLoaders(ctx: Ctx, services: Services): Loaders {
  return {
    orderFiles: new DataLoader(async (orderIds) => {
      const byOrder = await services.orders.filesOfMany(ctx.em, [...orderIds]);
      return orderIds.map((id) => byOrder.get(id) ?? []);
    }),
  };
}
