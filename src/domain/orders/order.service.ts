import { LockMode, UniqueConstraintViolationException, type EntityManager, type FilterQuery } from '@mikro-orm/core';
import type { JobQueue } from '../../jobs/job-queue';
import type { Mailer } from '../../providers/mail/mailer';
import { ServiceType } from '../catalog/catalog.enums';
import { requireAccount, requireAccountId, requireStaff } from '../accounts/authentication.service';
import type { AuditService } from '../audit/audit.service';
import { AttachmentOwner, FileAttachment } from '../files/file-attachment.entity';
import type { StoredFile } from '../files/file.entity';
import type { FilesService } from '../files/files.service';
import { Addon } from '../catalog/rates.entity';
import { accountOf } from '../accounts/account-of';
import { hardCopiesShippedEmail } from '../mail/messages';
import type { CheckoutSummary } from '../payments/checkout-summary';
import { lifecycleHolder } from '../payments/lifecycle-holder';
import type { PaymentHolder, PaymentOwner, PaymentService } from '../payments/payment.service';
import { Quote, QuoteStatus, quoteStatus } from '../quotes/quote.entity';
import type { Ctx } from '../shared/context';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isId } from '../shared/ids';
import type { MoveCause } from '../shared/lifecycle';
import { Page, paginate, readPageRequest } from '../shared/pagination';
import { retryingTransaction } from '../shared/transaction';
import { Validator } from '../shared/validation';
import { readOrder, readOrderPage, readOrderVersion, type OrderView, type PolledOrder } from './order-read';
import { Order, OrderStatus } from './order.entity';
import { isRush, orderLifecycle, type OrderLifecycle } from './order.lifecycle';
import { shipmentOf } from './shipment';
import { referenceNumber } from './order-number';
import { CLIENT_CANCELLABLE } from './order.states';
import { visibleOrderFiles } from './order-visibility';

export interface OrderDeps {
  payments: PaymentService;
  mailer: Mailer;
  files: FilesService;
  queue: JobQueue;
  audit: AuditService;
  orderPrefix: string;
  turnaroundHours: number;
}

export interface StaffOrderQuery {
  status?: unknown;
  account_id?: unknown;
  assignee_id?: unknown;
  overdue?: boolean;
  search?: unknown;
  page?: unknown;
  per_page?: unknown;
}

/** Paid and not cancelled: hard copies can be on their way (D22). */
const SHIPPABLE = [OrderStatus.PROCESSING, OrderStatus.IN_REVIEW, OrderStatus.COMPLETED];

/** No longer worked on: never overdue. */
const FINISHED = [OrderStatus.COMPLETED, OrderStatus.CANCELLED];

/** Orders (contract 2.6, 3.1, 4.9-4.12; D9, D10, D26): conversion, payment, cancellation, holds. */
export class OrderService implements PaymentOwner {
  /** Every status change of an order goes through here (the pipeline and certified review too). */
  readonly lifecycle: OrderLifecycle;

  constructor(private readonly deps: OrderDeps) {
    this.lifecycle = orderLifecycle(deps);
    deps.payments.registerOwner(this);
  }

  /**
   * Quote -> order with a checkout. The provider's checkout is made before any lock is taken (D26); the quote
   * is then locked and checked again, so ten concurrent converts make one order and nine 422s (their unused
   * checkouts simply expire at the provider). A failing provider changes nothing (503).
   */
  async convert(ctx: Ctx, quoteId: unknown, input: { redirect_url?: unknown }): Promise<Order> {
    const account = requireAccount(ctx.actor);
    const v = new Validator(input as Record<string, unknown>);
    const redirectUrl = v.httpUrl('redirect_url');
    v.done();
    if (!isId(quoteId)) throw new NotFoundError();
    const quote = await ctx.em.findOne(Quote, { id: quoteId, account });
    assertConvertible(quote);

    return this.withUniqueNumber(async () => {
      const number = referenceNumber(this.deps.orderPrefix);
      const payment = await this.deps.payments.startCheckout({
        amountCents: quote.totalCents,
        currency: quote.currency,
        reference: number,
        description: `Translation order ${number}`,
        redirectUrl: redirectUrl ?? null,
      });
      return retryingTransaction(ctx.em, async (em) => {
        const locked = await em.findOne(Quote, { id: quoteId, account }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        assertConvertible(locked);
        const order = Object.assign(new Order(), {
          number,
          account,
          quote: locked,
          payment,
          serviceType: locked.serviceType,
          sourceLanguage: locked.sourceLanguage,
          targetLanguage: locked.targetLanguage,
          unitType: locked.unitType,
          unitCount: locked.unitCount,
          subtotalCents: locked.subtotalCents,
          addons: locked.addons,
          addonsTotalCents: locked.addonsTotalCents,
          totalCents: locked.totalCents,
          currency: locked.currency,
          reference: locked.reference,
          shippingAddress: locked.shippingAddress,
        });
        locked.storedStatus = QuoteStatus.CONVERTED;
        em.persist([payment, order]);
        await em.flush();
        const files = await em.find(FileAttachment, { ownerType: AttachmentOwner.QUOTE, ownerId: locked.id }, { populate: ['file'] });
        for (const attachment of files) await this.deps.files.attach(em, attachment.file, AttachmentOwner.ORDER, order.id);
        return order;
      });
    });
  }

  /** The order, its payment and its files, as polled all day: one statement, whatever the order holds (D23). */
  async get(ctx: Ctx, id: unknown): Promise<PolledOrder> {
    const accountId = requireAccountId(ctx.actor);
    if (!isId(id)) throw new NotFoundError();
    const polled = await readOrder(ctx.em, accountId, id);
    if (!polled) throw new NotFoundError();
    return { ...polled, files: visibleOrderFiles(ctx.actor, polled.order, polled.files) };
  }

  /** The version `get` would answer with, read alone for a conditional request (D23). */
  async version(ctx: Ctx, id: unknown): Promise<string> {
    const accountId = requireAccountId(ctx.actor);
    if (!isId(id)) throw new NotFoundError();
    const version = await readOrderVersion(ctx.em, accountId, id);
    if (version === null) throw new NotFoundError();
    return version;
  }

  /** Newest first: the count and the page with its payments and files, read without entities like `get`. */
  async list(ctx: Ctx, query: { status?: unknown; page?: unknown; per_page?: unknown }): Promise<Page<OrderView>> {
    const accountId = requireAccountId(ctx.actor);
    const v = new Validator(query as Record<string, unknown>);
    const status = v.oneOf('status', Object.values(OrderStatus));
    const page = readPageRequest(v);
    v.done();
    const orders = await readOrderPage(ctx.em, accountId, status, page);
    return { ...orders, items: orders.items.map(({ order, files }) => ({ order, files: visibleOrderFiles(ctx.actor, order, files) })) };
  }

  /** Client cancel: only from pending_payment or on_hold (contract 4.12); voids or refunds the payment. */
  async cancel(ctx: Ctx, id: unknown): Promise<PolledOrder> {
    await this.version(ctx, id);
    await this.cancelOrder(ctx, id, { actor: ctx.actor, action: 'cancel' }, (locked) => {
      if (!CLIENT_CANCELLABLE.includes(locked.status)) {
        throw ValidationError.of('status', `Cannot cancel the order while the status is ${locked.status}.`);
      }
    });
    return this.get(ctx, id);
  }

  /**
   * Staff list across accounts, soonest due first (docs/decisions.md G4, G5), filtered and paginated in the
   * database: by status, account, assignee, overdue (due and not finished), and `search` in the number, the
   * reference or the account's name. Accounts and assignees come in the same query.
   */
  async staffList(ctx: Ctx, query: StaffOrderQuery): Promise<Page<Order>> {
    requireStaff(ctx.actor);
    const v = new Validator(query as Record<string, unknown>);
    const status = v.oneOf('status', Object.values(OrderStatus));
    const accountId = readId(v, 'account_id');
    const assigneeId = readId(v, 'assignee_id');
    const search = v.string('search', { max: 255 });
    const page = readPageRequest(v);
    v.done();
    const contains = search ? { $ilike: `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } : undefined;
    const where: FilterQuery<Order> = {
      ...(status ? { status } : {}),
      ...(accountId ? { account: accountId } : {}),
      ...(assigneeId ? { assignee: assigneeId } : {}),
      ...(query.overdue ? { dueAt: { $lt: new Date() }, status: status ?? { $nin: FINISHED } } : {}),
      ...(contains ? { $or: [{ number: contains }, { reference: contains }, { account: { name: contains } }] } : {}),
    };
    return paginate(ctx.em, Order, where, page, { orderBy: { dueAt: 'asc nulls last', createdAt: 'asc' } as never, populate: ['account', 'assignee'] as never });
  }

  /** Staff look-up by id or by number (one of them); 404 when neither matches. */
  async staffGet(ctx: Ctx, by: { id?: unknown; number?: unknown }): Promise<Order> {
    requireStaff(ctx.actor);
    const where = isId(by.id) ? { id: by.id } : typeof by.number === 'string' && by.number.trim() ? { number: by.number.trim().toUpperCase() } : null;
    const order = where && (await ctx.em.findOne(Order, where, { populate: ['account', 'assignee'] }));
    if (!order) throw new NotFoundError();
    return order;
  }

  async hold(ctx: Ctx, id: unknown, input: { reason?: unknown }): Promise<Order> {
    requireStaff(ctx.actor);
    const v = new Validator(input as Record<string, unknown>);
    const reason = v.string('reason', { required: true, max: 500 });
    v.done();
    if (!isId(id)) throw new NotFoundError();
    return this.lifecycle.change(ctx.em, { id }, (em, order) => this.lifecycle.hold(em, order, { actor: ctx.actor, action: 'hold', reason }));
  }

  /** Back to where the hold interrupted; back in processing, the translation is queued again (D10, D11). */
  async release(ctx: Ctx, id: unknown): Promise<Order> {
    requireStaff(ctx.actor);
    if (!isId(id)) throw new NotFoundError();
    return this.lifecycle.change(ctx.em, { id }, (em, order) => this.lifecycle.release(em, order, { actor: ctx.actor, action: 'release' }));
  }

  /** Staff may cancel any order not yet completed; a paid one is refunded (D10). */
  async staffCancel(ctx: Ctx, id: unknown, input: { reason?: unknown }): Promise<Order> {
    requireStaff(ctx.actor);
    const v = new Validator(input as Record<string, unknown>);
    const reason = v.string('reason', { required: true, max: 500 });
    v.done();
    return this.cancelOrder(ctx, id, { actor: ctx.actor, action: 'cancel', reason });
  }

  /**
   * Staff hand the hard copies of a paid order to a carrier (D22): recorded once, audited, and the account e-mailed
   * the tracking number.
   */
  async markShipped(ctx: Ctx, id: unknown, input: { carrier?: unknown; tracking_number?: unknown }): Promise<Order> {
    requireStaff(ctx.actor);
    const v = new Validator(input as Record<string, unknown>);
    const carrier = v.string('carrier', { required: true, max: 100 });
    const trackingNumber = v.string('tracking_number', { required: true, max: 100 });
    v.done();
    if (!isId(id)) throw new NotFoundError();
    return this.lifecycle.change(ctx.em, { id }, async (em, order) => {
      if (!order.shippingAddress) throw ValidationError.of('order', 'The order has no hard copies to ship.');
      if (!SHIPPABLE.includes(order.status)) throw ValidationError.of('status', `Cannot ship the order while the status is ${order.status}.`);
      if (order.shippedAt) throw ValidationError.of('shipment', 'The hard copies are already marked shipped.');
      Object.assign(order, { shipmentCarrier: carrier!, shipmentTrackingNumber: trackingNumber!, shippedAt: new Date() });
      this.lifecycle.record(em, order, order.status, { actor: ctx.actor, action: 'mark_shipped' }, { carrier, tracking_number: trackingNumber });
      await em.flush();
      await this.deps.mailer.send(em, hardCopiesShippedEmail(await accountOf(em, order), order.number, shipmentOf(order)!));
    });
  }

  /** PaymentOwner: the order holding this payment, locked before the payment (D26). */
  async lockHolder(em: EntityManager, paymentId: string): Promise<PaymentHolder | null> {
    const order = await this.lifecycle.lock(em, { payment: paymentId });
    if (!order) return null;
    return lifecycleHolder(this.lifecycle, order, {
      awaiting: OrderStatus.PENDING_PAYMENT,
      paid: OrderStatus.PROCESSING,
      label: `Order ${order.number}`,
      mailer: this.deps.mailer,
      onPaid: (payment) => {
        const paidAt = payment.paidAt ?? new Date();
        order.dueAt = new Date(paidAt.getTime() + (isRush(order) ? 2 : this.deps.turnaroundHours) * 60 * 60 * 1000);
      },
    });
  }

  /** PaymentOwner: the order's priced lines (contract 2.6), add-ons named as the catalog names them. */
  async summarize(em: EntityManager, paymentId: string): Promise<CheckoutSummary | null> {
    const order = await em.findOne(Order, { payment: paymentId });
    if (!order) return null;
    const names = new Map((await em.find(Addon, { code: { $in: order.addons.map((line) => line.code) } })).map((addon) => [addon.code, addon.name]));
    const units = `${order.unitCount} ${order.unitType}${order.unitCount === 1 ? '' : 's'}`;
    return {
      kind: 'order',
      id: order.id,
      number: order.number,
      lines: [
        { label: `${order.serviceType === ServiceType.CERTIFIED ? 'Certified' : 'Standard'} translation, ${order.sourceLanguage} to ${order.targetLanguage}, ${units}`, amountCents: order.subtotalCents },
        ...order.addons.map((line) => ({ label: `${names.get(line.code) ?? line.code}${line.quantity > 1 ? ` x ${line.quantity}` : ''}`, amountCents: line.totalCents })),
      ],
      totalCents: order.totalCents,
      currency: order.currency,
    };
  }

  /** The pipeline translated every source file: standard orders complete, certified ones wait for review (D10). */
  translationFinished(em: EntityManager, order: Order): Promise<void> {
    const to = order.serviceType === ServiceType.CERTIFIED ? OrderStatus.IN_REVIEW : OrderStatus.COMPLETED;
    return this.lifecycle.move(em, order, to, { actor: null, action: 'translated' }, 'finish the translation');
  }

  /** Cancels with the payment settled (D26); a capture under way refuses the cancel. */
  private cancelOrder(ctx: Ctx, id: unknown, cause: MoveCause, allowed?: (order: Order) => void): Promise<Order> {
    if (!isId(id)) throw new NotFoundError();
    return this.deps.payments.cancelHolder(ctx.em, this.lifecycle, id, cause, allowed);
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

function assertConvertible(quote: Quote | null): asserts quote is Quote {
  if (!quote) throw new NotFoundError();
  const status = quoteStatus(quote);
  if (status !== QuoteStatus.PRICED) {
    throw ValidationError.of('quote', status === QuoteStatus.EXPIRED ? 'The quote has expired.' : 'The quote has already been converted.');
  }
}
function readId(v: Validator, field: string): string | undefined {
  const value = v.string(field, { max: 36 });
  if (value !== undefined && !isId(value)) v.fail(field, `The ${field.replace(/_/g, ' ')} field must be a valid id.`);
  return value;
}

