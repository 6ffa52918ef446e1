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
  orderFiles: OrderFilesLoader;
}

export function createLoaders(ctx: Ctx, services: Services): Loaders {
  return { orderFiles: new OrderFilesLoader(ctx, services) };
}

/**
 * The files of many orders in one query: a list of orders never costs a query per order. Files read with their
 * order (the polled `order`, D23, and pages) are primed and answered at once, not as a promise, so graphql-js
 * completes the order's fields without waiting a turn for them.
 */
export class OrderFilesLoader {
  private readonly primed = new Map<string, OrderFileRead[]>();
  private batch?: DataLoader<string, OrderFileRead[]>;

  constructor(
    private readonly ctx: Ctx,
    private readonly services: Services,
  ) {}

  prime(orderId: string, files: OrderFileRead[]): void {
    this.primed.set(orderId, files);
  }

  load(orderId: string): OrderFileRead[] | Promise<OrderFileRead[]> {
    return this.primed.get(orderId) ?? (this.batch ??= this.batchLoader()).load(orderId);
  }

  private batchLoader(): DataLoader<string, OrderFileRead[]> {
    return new DataLoader(async (orderIds) => {
      const byOrder = await this.services.orders.filesOfMany(this.ctx.em, [...orderIds]);
      return orderIds.map((id) => byOrder.get(id) ?? []);
    });
  }
}
