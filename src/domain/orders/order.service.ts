import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { JobQueue } from '../../jobs/job-queue';
import type { Mailer } from '../../providers/mail/mailer';
import { onHoldEmail, orderCompletedEmail } from '../mail/messages';
import { ServiceType } from '../catalog/catalog.enums';
import { Account } from '../accounts/account.entity';
import { requireAccount } from '../accounts/authentication.service';
import type { AuditService } from '../audit/audit.service';
import { AttachmentOwner, FileAttachment } from '../files/file-attachment.entity';
import type { StoredFile } from '../files/file.entity';
import type { FilesService } from '../files/files.service';
import type { Payment } from '../payments/payment.entity';
import type { PaymentOwner, PaymentService } from '../payments/payment.service';
import { Quote, QuoteStatus, quoteStatus } from '../quotes/quote.entity';
import type { Ctx } from '../shared/context';
import { NotFoundError, ValidationError } from '../shared/errors';
import { isId } from '../shared/ids';
import { Page, paginate, readPageRequest } from '../shared/pagination';
import { assertTransition } from '../shared/state-machine';
import { changeStatusLocked, placeOnHold, releaseHold } from '../shared/status-change';
import { Validator } from '../shared/validation';
import { Order, OrderStatus } from './order.entity';
import { referenceNumber } from './order-number';
import { CLIENT_CANCELLABLE, orderTransitions } from './order.states';

export interface OrderDeps {
  payments: PaymentService;
  mailer: Mailer;
  files: FilesService;
  queue: JobQueue;
  audit: AuditService;
  orderPrefix: string;
  turnaroundHours: number;
}

export interface OrderView {
  order: Order;
  files: StoredFile[];
}

const RUSH = 'rush_2h';

/** Orders (contract 2.6, 3.1, 4.9-4.12; D9, D10): conversion, payment, cancellation, holds. */
export class OrderService implements PaymentOwner {
  constructor(private readonly deps: OrderDeps) {
    deps.payments.registerOwner(this);
  }

  /**
   * Quote -> order with a checkout, in one transaction that locks the quote: ten concurrent converts make one
   * order and nine 422s. If the payment provider fails, everything rolls back (503) and the quote stays priced.
   */
  async convert(ctx: Ctx, quoteId: unknown, input: { redirect_url?: unknown }): Promise<Order> {
    const account = requireAccount(ctx.actor);
    const v = new Validator(input as Record<string, unknown>);
    const redirectUrl = v.string('redirect_url', { max: 2048 });
    if (redirectUrl !== undefined && !isHttpUrl(redirectUrl)) v.fail('redirect_url', 'The redirect url field must be an absolute http(s) URL.');
    v.done();
    if (!isId(quoteId)) throw new NotFoundError();

    return this.withUniqueNumber(() =>
      ctx.em.transactional(async (em) => {
        const quote = await em.findOne(Quote, { id: quoteId, account }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!quote) throw new NotFoundError();
        const status = quoteStatus(quote);
        if (status !== QuoteStatus.PRICED) {
          throw ValidationError.of('quote', status === QuoteStatus.EXPIRED ? 'The quote has expired.' : 'The quote has already been converted.');
        }
        const number = referenceNumber(this.deps.orderPrefix);
        const payment = await this.deps.payments.startCheckout({
          amountCents: quote.totalCents,
          currency: quote.currency,
          reference: number,
          description: `Translation order ${number}`,
          redirectUrl: redirectUrl ?? null,
        });
        const order = Object.assign(new Order(), {
          number,
          account,
          quote,
          payment,
          serviceType: quote.serviceType,
          sourceLanguage: quote.sourceLanguage,
          targetLanguage: quote.targetLanguage,
          unitType: quote.unitType,
          unitCount: quote.unitCount,
          subtotalCents: quote.subtotalCents,
          addons: quote.addons,
          addonsTotalCents: quote.addonsTotalCents,
          totalCents: quote.totalCents,
          currency: quote.currency,
          reference: quote.reference,
        });
        quote.storedStatus = QuoteStatus.CONVERTED;
        em.persist([payment, order]);
        await em.flush();
        const files = await em.find(FileAttachment, { ownerType: AttachmentOwner.QUOTE, ownerId: quote.id }, { populate: ['file'] });
        for (const attachment of files) await this.deps.files.attach(em, attachment.file, AttachmentOwner.ORDER, order.id);
        return order;
      }),
    );
  }

  /** The order and its files: a constant number of queries, whatever the order holds (polled all day). */
  async get(ctx: Ctx, id: unknown): Promise<OrderView> {
    const account = requireAccount(ctx.actor);
    if (!isId(id)) throw new NotFoundError();
    const order = await ctx.em.findOne(Order, { id, account });
    if (!order) throw new NotFoundError();
    return { order, files: await this.filesOf(ctx.em, order) };
  }

  /** Newest first, with every order's files fetched in one more query for the whole page. */
  async list(ctx: Ctx, query: { status?: unknown; page?: unknown; per_page?: unknown }): Promise<Page<OrderView>> {
    const account = requireAccount(ctx.actor);
    const v = new Validator(query as Record<string, unknown>);
    const status = v.oneOf('status', Object.values(OrderStatus));
    const page = readPageRequest(v);
    v.done();
    const orders = await paginate(ctx.em, Order, status ? { account, status } : { account }, page, { orderBy: { createdAt: 'desc', id: 'desc' } });
    const files = await this.filesOfMany(ctx.em, orders.items.map((order) => order.id));
    return { ...orders, items: orders.items.map((order) => ({ order, files: files.get(order.id) ?? [] })) };
  }

  /** Client cancel: only from pending_payment or on_hold (contract 4.12); voids or refunds the payment. */
  async cancel(ctx: Ctx, id: unknown): Promise<OrderView> {
    const { order } = await this.get(ctx, id);
    await this.changeStatus(ctx, order.id, 'cancel', async (_em, locked) => {
      if (!CLIENT_CANCELLABLE.includes(locked.status)) {
        throw ValidationError.of('status', `Cannot cancel the order while the status is ${locked.status}.`);
      }
      await this.cancelLocked(locked);
    });
    return this.get(ctx, id);
  }

  /** Staff list across accounts, soonest due first (graphql.md `staffOrders`). */
  async staffList(ctx: Ctx, query: { status?: unknown; account_id?: unknown; page?: unknown; per_page?: unknown }): Promise<Page<Order>> {
    const v = new Validator(query as Record<string, unknown>);
    const status = v.oneOf('status', Object.values(OrderStatus));
    const accountId = v.string('account_id', { max: 36 });
    if (accountId !== undefined && !isId(accountId)) v.fail('account_id', 'The account id field must be a valid id.');
    const page = readPageRequest(v);
    v.done();
    const where = { ...(status ? { status } : {}), ...(accountId ? { account: accountId } : {}) };
    return paginate(ctx.em, Order, where, page, { orderBy: { dueAt: 'asc nulls last', createdAt: 'asc' } as never });
  }

  async staffGet(ctx: Ctx, id: unknown): Promise<Order> {
    if (!isId(id)) throw new NotFoundError();
    const order = await ctx.em.findOne(Order, { id });
    if (!order) throw new NotFoundError();
    return order;
  }

  async hold(ctx: Ctx, id: unknown, input: { reason?: unknown }): Promise<Order> {
    const v = new Validator(input as Record<string, unknown>);
    const reason = v.string('reason', { required: true, max: 500 });
    v.done();
    return this.changeStatus(ctx, id, 'hold', (em, order) => this.holdLocked(em, order, reason!));
  }

  async release(ctx: Ctx, id: unknown): Promise<Order> {
    return this.changeStatus(ctx, id, 'release', async (em, order) => {
      // Back to work: (re)queue the translation; the pipeline never duplicates output for a job run twice (D11).
      if (releaseHold(order, 'order') === OrderStatus.PROCESSING) await this.deps.queue.enqueue(em, 'translate-order', { orderId: order.id });
    });
  }

  /** Staff may cancel any order not yet completed; a paid one is refunded (D10). */
  async staffCancel(ctx: Ctx, id: unknown, input: { reason?: unknown }): Promise<Order> {
    const v = new Validator(input as Record<string, unknown>);
    v.string('reason', { required: true, max: 500 });
    v.done();
    return this.changeStatus(ctx, id, 'cancel', async (_em, order) => this.cancelLocked(order), input.reason);
  }

  /** PaymentOwner: the payment of one of our orders was confirmed. */
  async paymentConfirmed(em: EntityManager, payment: Payment): Promise<boolean> {
    const order = await em.findOne(Order, { payment }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!order) return false;
    const paidAt = payment.paidAt ?? new Date();
    const rush = order.addons.some((line) => line.code === RUSH);
    order.dueAt = new Date(paidAt.getTime() + (rush ? 2 : this.deps.turnaroundHours) * 60 * 60 * 1000);
    if (order.status === OrderStatus.ON_HOLD && order.heldFrom === OrderStatus.PENDING_PAYMENT) {
      order.heldFrom = OrderStatus.PROCESSING; // paid while held: release will resume the work
    } else {
      assertTransition(orderTransitions, order.status, OrderStatus.PROCESSING, 'start processing the order');
      order.status = OrderStatus.PROCESSING;
      await em.flush();
      await this.deps.queue.enqueue(em, 'translate-order', { orderId: order.id }, { priority: rush ? 10 : 0 });
    }
    this.deps.audit.record(em, null, {
      action: 'order.paid',
      resourceType: 'order',
      resourceId: order.id,
      fromState: OrderStatus.PENDING_PAYMENT,
      toState: order.status,
    });
    return true;
  }

  /** PaymentOwner: the money was taken back; hold the order for staff, whatever it was doing. */
  async paymentReversed(em: EntityManager, payment: Payment, reason: string): Promise<boolean> {
    const order = await em.findOne(Order, { payment }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!order) return false;
    if (orderTransitions[order.status].includes(OrderStatus.ON_HOLD)) await this.systemHold(em, order, reason);
    return true;
  }

  /** The pipeline translated every source file: standard orders complete, certified ones wait for review (D10). */
  async translationFinished(em: EntityManager, order: Order): Promise<void> {
    const to = order.serviceType === ServiceType.CERTIFIED ? OrderStatus.IN_REVIEW : OrderStatus.COMPLETED;
    assertTransition(orderTransitions, order.status, to, 'finish the translation');
    const from = order.status;
    order.status = to;
    if (to === OrderStatus.COMPLETED) order.completedAt = new Date();
    await em.flush();
    if (to === OrderStatus.COMPLETED) await this.deps.mailer.send(em, orderCompletedEmail(await this.accountOf(em, order), order));
    this.deps.audit.record(em, null, { action: 'order.translated', resourceType: 'order', resourceId: order.id, fromState: from, toState: to });
  }

  /** The pipeline cannot go on (no text, engine failing): on hold with the reason, and the account is told (D10). */
  async systemHold(em: EntityManager, order: Order, reason: string): Promise<void> {
    const from = order.status;
    await this.holdLocked(em, order, reason);
    this.deps.audit.record(em, null, { action: 'order.hold', resourceType: 'order', resourceId: order.id, fromState: from, toState: OrderStatus.ON_HOLD, details: { reason } });
  }

  private async holdLocked(em: EntityManager, order: Order, reason: string): Promise<void> {
    placeOnHold(order, orderTransitions, reason, 'order');
    await em.flush();
    await this.deps.mailer.send(em, onHoldEmail(await this.accountOf(em, order), `Order ${order.number}`, reason));
  }

  private async accountOf(em: EntityManager, order: Order) {
    return em.findOneOrFail(Account, { id: order.account.id });
  }

  private async cancelLocked(order: Order): Promise<void> {
    assertTransition(orderTransitions, order.status, OrderStatus.CANCELLED, 'cancel the order');
    await this.deps.payments.settleCancellation(order.payment);
    Object.assign(order, { status: OrderStatus.CANCELLED, cancelledAt: new Date(), heldFrom: null });
  }

  private changeStatus(ctx: Ctx, id: unknown, action: string, apply: (em: EntityManager, order: Order) => Promise<void>, reason?: unknown): Promise<Order> {
    return changeStatusLocked({ ctx, entity: Order, id, resourceType: 'order', action, audit: this.deps.audit, reason: typeof reason === 'string' ? reason : undefined, apply });
  }

  private async filesOf(em: EntityManager, order: Order): Promise<StoredFile[]> {
    return (await this.filesOfMany(em, [order.id])).get(order.id) ?? [];
  }

  /** The files of several orders in one query (joined), in the order they were attached. */
  async filesOfMany(em: EntityManager, orderIds: string[]): Promise<Map<string, StoredFile[]>> {
    const byOrder = new Map<string, StoredFile[]>();
    if (!orderIds.length) return byOrder;
    const attachments = await em.find(
      FileAttachment,
      { ownerType: AttachmentOwner.ORDER, ownerId: { $in: orderIds } },
      { populate: ['file'], orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    for (const attachment of attachments) {
      byOrder.set(attachment.ownerId, [...(byOrder.get(attachment.ownerId) ?? []), attachment.file]);
    }
    return byOrder;
  }

  /** Order numbers are random: on the rare clash, the whole conversion is tried again with a new one (D10). */
  private async withUniqueNumber<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (!(error instanceof UniqueConstraintViolationException) || !String(error.message).includes('number') || attempt >= 5) throw error;
      }
    }
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.host);
  } catch {
    return false;
  }
}
