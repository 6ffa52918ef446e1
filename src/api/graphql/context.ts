import DataLoader from 'dataloader';
import type { BookingNote } from '../../domain/bookings/booking-note.entity';
import type { IssuedCertificate } from '../../domain/certification/issued-certificate.entity';
import type { Notarization } from '../../domain/certification/notarization.entity';
import type { TranslationReview } from '../../domain/certification/translation-review.entity';
import type { OrderNote } from '../../domain/orders/order-note.entity';
import type { OrderMessage } from '../../domain/orders/order-message.entity';
import type { Page, PageRequest } from '../../domain/shared/pagination';
import { certificatesOf } from '../../domain/certification/issued-certificates';
import type { OrderFileRead } from '../../domain/orders/order-read';
import type { RevisionLinks } from '../../domain/orders/order-revisions.service';
import type { Ctx } from '../../domain/identity/context';
import type { Services } from '../../services';
import type { PolledAnswer } from '../../domain/accounts/authentication.service';
import type { PolledField } from './polled-field';

/** What every resolver gets: the request's service context, the shared services, and per-request batch loaders. */
export interface GraphQLContext {
  ctx: Ctx;
  services: Services;
  loaders: Loaders;
  /** The rate-limit bucket this request spends from (D24); null for staff, whose tools are not limited. */
  budget: string | null;
  /** What the admission found the document would cost (document-admission.ts); undefined when it could not read it. */
  requestedCost?: number;
  /** The client's address, for the limits of the sign-in door (D27). */
  clientAddress: string;
  /**
   * The answer to `field(id)` read with the caller's key when the document polls only that (polled-field.ts, D23):
   * null when the caller has no such record, undefined when it was not read ahead (the resolver reads it).
   */
  polledAnswer: (field: PolledField, id: string) => PolledAnswer | null | undefined;
}

/** Each made when first asked: a page of orders or bookings costs one statement per field, not one per row. */
export interface Loaders {
  orderFiles: OrderFilesLoader;
  /** The certificates of orders, by order id. */
  certificates(): DataLoader<string, IssuedCertificate | null>;
  /** Staff: the notes of orders and of bookings, the reviews and the notarization of orders, by their row's id. */
  orderNotes(): DataLoader<string, OrderNote[]>;
  bookingNotes(): DataLoader<string, BookingNote[]>;
  reviews(): DataLoader<string, TranslationReview[]>;
  notarizations(): DataLoader<string, Notarization | null>;
  /** The revision links and reference files of orders read as entities (D30), by order id. */
  revisionLinks(): DataLoader<string, RevisionLinks>;
  /** The same page of each order's conversation (D30), by order id: one loader per page asked for. */
  orderMessages(request: PageRequest): DataLoader<string, Page<OrderMessage>>;
}

export function createLoaders(ctx: Ctx, services: Services): Loaders {
  return {
    orderFiles: new OrderFilesLoader(ctx, services),
    certificates: once(
      () =>
        new DataLoader(async (orderIds) => {
          const found = await certificatesOf(ctx.em, orderIds);
          return orderIds.map((id) => found.get(id) ?? null);
        }),
    ),
    orderNotes: once(() => new DataLoader((ids) => services.orderDesk.notes(ctx, ids))),
    bookingNotes: once(() => new DataLoader((ids) => services.bookingDesk.notes(ctx, ids))),
    reviews: once(() => new DataLoader((ids) => services.certifiedReview.reviews(ctx, ids))),
    notarizations: once(() => new DataLoader((ids) => services.certifiedReview.notarizations(ctx, ids))),
    revisionLinks: once(
      () =>
        new DataLoader(async (orderIds) => {
          const links = await services.revisions.linksOfMany(ctx.em, orderIds);
          return orderIds.map((id) => links.get(id)!);
        }),
    ),
    orderMessages: perPage((request) => new DataLoader((ids) => services.orderMessages.pagesOf(ctx, ids, request))),
  };
}

/** `make`'s result, made on the first call and kept. */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** `make`'s result for each page asked for, made on the first call for that page and kept. */
function perPage<T>(make: (request: PageRequest) => T): (request: PageRequest) => T {
  const made = new Map<string, T>();
  return (request) => {
    const key = `${request.page}/${request.perPage}`;
    if (!made.has(key)) made.set(key, make(request));
    return made.get(key)!;
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
