import DataLoader from 'dataloader';
import type { IssuedCertificate } from '../../domain/certification/issued-certificate.entity';
import { certificatesOf } from '../../domain/certification/issued-certificates';
import type { OrderFileRead } from '../../domain/orders/order-read';
import type { Ctx } from '../../domain/identity/context';
import type { Services } from '../../services';

/** What every resolver gets: the request's service context, the shared services, and per-request batch loaders. */
export interface GraphQLContext {
  ctx: Ctx;
  services: Services;
  loaders: Loaders;
  /** The rate-limit bucket this request spends from (D24); null for staff, whose tools are not limited. */
  budget: string | null;
  /** The client's address, for the limits of the sign-in door (D27). */
  clientAddress: string;
}

export interface Loaders {
  orderFiles: OrderFilesLoader;
  /** The certificates of orders, by order id, made when first asked. */
  certificates(): DataLoader<string, IssuedCertificate | null>;
}

export function createLoaders(ctx: Ctx, services: Services): Loaders {
  let certificates: DataLoader<string, IssuedCertificate | null> | undefined;
  return {
    orderFiles: new OrderFilesLoader(ctx, services),
    certificates: () =>
      (certificates ??= new DataLoader(async (orderIds) => {
        const found = await certificatesOf(ctx.em, orderIds);
        return orderIds.map((id) => found.get(id) ?? null);
      })),
  };
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
