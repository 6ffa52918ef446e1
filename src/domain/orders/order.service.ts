import { isStorableText } from '../shared/field-readers';
import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { ServiceType } from '../catalog/catalog.enums';
import { requireAccount, requireAccountId, requireStaff } from '../identity/guards';
import { assignedOrdersOnly } from '../identity/staff-permissions';
import { AttachmentOwner, FileAttachment } from '../files/file-attachment.entity';
import { FileType, type StoredFile } from '../files/file.entity';
import { hasTextLayer } from '../../documents/formats';
import type { FilesService } from '../files/files.service';
import type { CheckoutReturn, StaffRefundRequest } from '../payments/payment.commands';
import { readRenewalRequest } from '../payments/renewal-request';
import { paymentOf, type CheckoutRequest, type PaymentService } from '../payments/payment.service';
import { Quote, QuoteStatus, quoteStatus } from '../quotes/quote.entity';
import type { Ctx } from '../identity/context';
import { BillingTerms } from '../identity/account.entity';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isId, newId } from '../shared/ids';
import type { MoveCause } from '../lifecycle/lifecycle';
import { Page, pageRequest, type VersionedPage } from '../shared/pagination';
import { retryingTransaction } from '../shared/transaction';
import {
  orderAnswerOf,
  orderVersionOf,
  polledOrderOf,
  readOrder,
  readOrderPage,
  readOrderVersion,
} from './polled-orders.queries';
import type { PolledAnswer, PolledRead } from '../identity/account-by-key.queries';
import type { OrderView, PolledOrder, StaffOrderView } from './order-read';
import type { StaffReason } from '../desk/desk.commands';
import type { ListOrders, StaffOrders } from './order.commands';
import { Order, OrderStatus } from './order.entity';
import type { Payment } from '../payments/payment.entity';
import { placedBy } from '../identity/placed-by';
import type { OrderLifecycle } from './order.lifecycle';
import { referenceNumber } from '../shared/reference-number';
import { visibleOrderFiles } from './order-visibility';
import { readStaffOrderPage } from './staff-order-queue.queries';

export interface OrderDeps {
  payments: PaymentService;
  files: FilesService;
  lifecycle: OrderLifecycle;
  orderPrefix: string;
}

/** Orders (`convertQuote`, `listOrders`, `getOrder`, `cancelOrder`, `renewOrderCheckout`; D9, D10, D26): conversion, payment, cancellation, holds. */
export class OrderService {
  /** Every status change of an order goes through here (the pipeline and certified review too). */
  readonly lifecycle: OrderLifecycle;

  constructor(private readonly deps: OrderDeps) {
    this.lifecycle = deps.lifecycle;
  }

  /**
   * Quote -> order with a checkout. The provider's checkout is made before any lock is taken (D26); the quote
   * is then locked and checked again, so ten concurrent converts make one order and nine 422s (their unused
   * checkouts simply expire at the provider). A failing provider changes nothing (503).
   */
  async convert(
    ctx: Ctx,
    quoteId: unknown,
    { redirectUrl }: CheckoutReturn,
    { onAccount = false }: { onAccount?: boolean } = {},
  ): Promise<Order> {
    const account = requireAccount(ctx.actor, 'orders.convert');
    if (!isId(quoteId)) throw new NotFoundError();
    const quote = await ctx.em.findOne(Quote, { id: quoteId, account });
    assertConvertible(quote);
    // D31: on terms the "checkout" is the service's own placement page; `onAccount` places the order at once.
    const terms = account.billingTerms !== BillingTerms.CHECKOUT;
    if (onAccount && !terms)
      throw ValidationError.of(
        'terms',
        'This account pays each order at the checkout: it has no terms to place work on account.',
      );
    // D31: billing applies from the next conversion on, so a quote made before the account required a purchase order
    // is refused here as a new quote without one is.
    if (account.purchaseOrderRequired && !quote.purchaseOrder)
      throw ValidationError.of(
        'purchase_order',
        'The purchase order field is required for this account: ask for a new quote with one.',
      );

    const order = await this.withUniqueNumber(async () => {
      const id = newId();
      const number = referenceNumber(this.deps.orderPrefix);
      const checkout = await this.deps.payments.startCheckout(
        checkoutFor({ id, number, totalCents: quote.totalCents, currency: quote.currency }, redirectUrl ?? null),
        { onAccount: terms },
      );
      return retryingTransaction(ctx.em, async (em) => {
        const payment = paymentOf(em, checkout);
        const locked = await em.findOne(
          Quote,
          { id: quoteId, account },
          { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
        );
        assertConvertible(locked);
        const order = em.create(Order, {
          id,
          number,
          account,
          quote: locked,
          payment,
          serviceType: locked.serviceType,
          sourceLanguage: locked.sourceLanguage,
          targetLanguage: locked.targetLanguage,
          unitType: locked.unitType,
          unitCount: locked.unitCount,
          documentPages: locked.documentPages,
          scannedPages: locked.scannedPages,
          subtotalCents: locked.subtotalCents,
          addons: locked.addons,
          addonsTotalCents: locked.addonsTotalCents,
          totalCents: locked.totalCents,
          currency: locked.currency,
          reference: locked.reference,
          purchaseOrder: locked.purchaseOrder,
          instructions: locked.instructions,
          shippingAddress: locked.shippingAddress,
          placedBy: placedBy(ctx.actor),
        });
        locked.storedStatus = QuoteStatus.CONVERTED;
        em.persist([payment, order]);
        await em.flush();
        const files = await em.find(FileAttachment, { quote: locked }, { populate: ['file'] });
        for (const attachment of files)
          await this.deps.files.attach(em, attachment.file, AttachmentOwner.ORDER, order.id);
        if (onAccount) await this.deps.payments.reserveOnAccount(em, payment);
        return order;
      });
    });
    if (!onAccount) return order;
    await this.deps.payments.confirm(ctx.em, order.payment.providerOrderId!);
    return ctx.em.findOneOrFail(Order, { id: order.id }, { refresh: true });
  }

  /** D31: an order its placement page cannot place on account is paid by card instead (`PaymentService.payByCard`). */
  payByCard(em: EntityManager, providerOrderId: string): Promise<Payment> {
    return this.deps.payments.payByCard(em, this.lifecycle, providerOrderId, checkoutFor);
  }

  /**
   * The order `id` of the caller's account, its payment and its files, as polled all day: one statement, whatever the
   * order holds (D23); `known` is that answer when an API key's look-up already read it
   * (`AuthenticationService.resolvePolling`): null when it found none.
   */
  async get(ctx: Ctx, id: unknown, known?: PolledAnswer | null): Promise<PolledOrder> {
    const accountId = requireAccountId(ctx.actor, 'orders.read');
    if (!isId(id)) throw new NotFoundError();
    const polled =
      known === undefined ? await readOrder(ctx.em, accountId, id) : known && polledOrderOf(known.row, known.date);
    if (!polled) throw new NotFoundError();
    return { ...polled, files: visibleOrderFiles(ctx.actor, polled.order, polled.files) };
  }

  /**
   * One of the caller's orders by its number, as e-mails and invoices print it (`LT-2611-AB12CD`), in any case: what a
   * person who has only the number opens (the portal's `/portal/orders/LT-...`). Not a polled path: two statements.
   */
  async getByNumber(ctx: Ctx, number: unknown): Promise<PolledOrder> {
    const accountId = requireAccountId(ctx.actor, 'orders.read');
    if (typeof number !== 'string' || number.length > 30 || !isStorableText(number)) throw new NotFoundError();
    const found = await ctx.em.findOne(
      Order,
      { number: number.trim().toUpperCase(), account: accountId },
      { fields: ['id'] },
    );
    if (!found) throw new NotFoundError();
    return this.get(ctx, found.id);
  }

  /** What a GET of order `id` polls: an API key's look-up reads its version or its answer in the same statement (D23). */
  polled(id: string, reads: PolledRead['reads']): PolledRead {
    return { name: 'order', id, reads, versionOf: orderVersionOf, answerOf: orderAnswerOf };
  }

  /**
   * The version `get` would answer with, read alone for a conditional request (D23), unless `known`: the one an API
   * key's look-up already read (`AuthenticationService.resolvePolling`).
   */
  async version(ctx: Ctx, id: unknown, known?: string | null): Promise<string> {
    const version = await this.readVersion(ctx, id, known);
    if (version === null) throw new NotFoundError();
    return version;
  }

  /** As `version`, null when the caller has none by that id: what the polling lane hands over with a poll. */
  async readVersion(ctx: Ctx, id: unknown, known?: string | null): Promise<string | null> {
    const accountId = requireAccountId(ctx.actor, 'orders.read');
    if (!isId(id)) return null;
    return known === undefined ? readOrderVersion(ctx.em, accountId, id) : known;
  }

  /**
   * Newest first, or with `updated_since` the orders changed at or after it, oldest change first (D23): the page
   * with its total, payments and files, read without entities like `get`.
   */
  async list(ctx: Ctx, command: ListOrders): Promise<VersionedPage<OrderView>> {
    const accountId = requireAccountId(ctx.actor, 'orders.read');
    const orders = await readOrderPage(
      ctx.em,
      accountId,
      { status: command.status, updatedSince: command.updatedSince?.date },
      pageRequest(command),
    );
    return {
      ...orders,
      items: orders.items.map(({ order, files }) => ({ order, files: visibleOrderFiles(ctx.actor, order, files) })),
    };
  }

  /** Client cancel: only from pending_payment or on_hold (`cancelOrder`, the table's guard); voids or refunds the payment. */
  async cancel(ctx: Ctx, id: unknown): Promise<PolledOrder> {
    requireAccountId(ctx.actor, 'orders.cancel');
    await this.version(ctx, id);
    await this.cancelOrder(ctx, id, { actor: ctx.actor, action: 'cancel' });
    return this.get(ctx, id);
  }

  /** A fresh checkout for an order awaiting payment (D29); the old one no longer pays. */
  async renewCheckout(ctx: Ctx, id: unknown, { redirectUrl }: CheckoutReturn): Promise<PolledOrder> {
    const current = await readRenewalRequest(ctx, Order, id, 'orders.renew_checkout');
    await this.deps.payments.renewCheckout(ctx.em, this.lifecycle, current, {
      checkout: checkoutFor(current, redirectUrl ?? current.payment.redirectUrl),
      cause: { actor: ctx.actor, action: 'checkout_renewed' },
    });
    return this.get(ctx, current.id);
  }

  /**
   * Staff list across accounts, soonest due first (docs/decisions.md G4, G5), filtered and paginated in the
   * database: by status, account, assignee, overdue (due and not finished), and `search` in the number, the
   * reference or the account's name (`src/domain/orders/staff-order-queue.queries.ts`).
   */
  async staffList(ctx: Ctx, command: StaffOrders): Promise<Page<StaffOrderView>> {
    const staff = requireStaff(ctx.actor, 'staffOrders');
    const { status, queue, accountId, overdue, search } = command;
    // A translator's list is their own assignments, whatever they ask (D28).
    const assigneeId = assignedOrdersOnly(staff.role) ? staff.id : command.assigneeId;
    return readStaffOrderPage(
      ctx.em,
      { status, queue, accountId, assigneeId, overdue: overdue === true, search },
      pageRequest(command),
    );
  }

  async hold(ctx: Ctx, id: unknown, { reason }: StaffReason): Promise<Order> {
    requireStaff(ctx.actor, 'holdOrder');
    if (!isId(id)) throw new NotFoundError();
    return this.lifecycle.change(ctx.em, { id }, (em, order) =>
      this.lifecycle.hold(em, order, { actor: ctx.actor, action: 'hold', reason }),
    );
  }

  /**
   * Back to where the hold interrupted; back in processing, the translation is queued again (D10, D11). A release the
   * pipeline would undo at once is refused first (D30): a standard order whose source the engine cannot read, with no
   * translation attached for it, would only be held again, and the client e-mailed a second hold notice.
   */
  async release(ctx: Ctx, id: unknown): Promise<Order> {
    requireStaff(ctx.actor, 'releaseOrder');
    if (!isId(id)) throw new NotFoundError();
    return this.lifecycle.change(ctx.em, { id }, async (em, order) => {
      if (order.status === OrderStatus.ON_HOLD && order.heldFrom === OrderStatus.PROCESSING)
        await this.assertMachineTranslatable(em, order);
      await this.lifecycle.release(em, order, { actor: ctx.actor, action: 'release' });
    });
  }

  /** Refuses (422 `files`) a standard order with a source the engine cannot read and no translation attached for it. */
  private async assertMachineTranslatable(em: EntityManager, order: Order): Promise<void> {
    if (order.serviceType !== ServiceType.STANDARD) return;
    const files = (await this.filesOfMany(em, [order.id])).get(order.id) ?? [];
    const unreadable = files.filter(
      (file) =>
        file.type === FileType.SOURCE &&
        !files.some((other) => other.derivedFromId === file.id) &&
        !machineReadable(file),
    );
    if (unreadable.length)
      throw ValidationError.of(
        'files',
        `${unreadable.map((file) => file.name).join(', ')} ${unreadable.length > 1 ? 'have' : 'has'} no text the translation engine can read: attach a translation for ${unreadable.length > 1 ? 'each' : 'it'} (attachReviewedTranslation), then release the order.`,
      );
  }

  /** Staff may cancel any order not yet completed; a paid one is refunded (D10). */
  async staffCancel(ctx: Ctx, id: unknown, { reason }: StaffReason): Promise<Order> {
    requireStaff(ctx.actor, 'staffCancelOrder');
    return this.cancelOrder(ctx, id, { actor: ctx.actor, action: 'cancel', reason });
  }

  /** D30: staff give back part or all of what the order captured; the order keeps its state. */
  async refund(ctx: Ctx, id: unknown, command: StaffRefundRequest): Promise<Order> {
    requireStaff(ctx.actor, 'refundOrder');
    if (!isId(id)) throw new NotFoundError();
    return this.deps.payments.refundHolder(ctx.em, this.lifecycle, id, command, ctx.actor);
  }

  /**
   * A processing order, locked in `em`'s transaction, whose every source file now has its translation (the engine's
   * or, for a certified scan, a translator's: D30) moves on: standard orders complete, certified ones wait for review
   * (D10). While a source still has none, nothing moves: the order stays in the translators' queue.
   */
  async finishIfTranslated(
    em: EntityManager,
    order: Order,
    cause: MoveCause = { actor: null, action: 'translated' },
  ): Promise<void> {
    const files = (await this.filesOfMany(em, [order.id])).get(order.id) ?? [];
    const untranslated = files.some(
      (source) => source.type === FileType.SOURCE && !files.some((file) => file.derivedFromId === source.id),
    );
    if (!untranslated) await this.translationFinished(em, order, cause);
  }

  /** Every source file is translated: standard orders complete, certified ones wait for review (D10). */
  translationFinished(
    em: EntityManager,
    order: Order,
    cause: MoveCause = { actor: null, action: 'translated' },
  ): Promise<void> {
    order.awaitingTranslator = false;
    const to = order.serviceType === ServiceType.CERTIFIED ? OrderStatus.IN_REVIEW : OrderStatus.COMPLETED;
    return this.lifecycle.move(em, order, to, cause, 'finish the translation');
  }

  /** Cancels with the payment settled (D26); a capture under way refuses the cancel. */
  private cancelOrder(ctx: Ctx, id: unknown, cause: MoveCause): Promise<Order> {
    if (!isId(id)) throw new NotFoundError();
    return this.deps.payments.cancelHolder(ctx.em, this.lifecycle, id, cause);
  }

  /**
   * The files of several orders in one query (joined), in the order they were attached; a revision's reference files
   * (D30) are not among them.
   */
  async filesOfMany(em: EntityManager, orderIds: string[]): Promise<Map<string, StoredFile[]>> {
    const byOrder = new Map<string, StoredFile[]>();
    if (!orderIds.length) return byOrder;
    const attachments = await em.find(
      FileAttachment,
      { order: { $in: orderIds }, reference: false },
      { populate: ['file'], orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    for (const attachment of attachments) {
      const orderId = attachment.order!.id;
      byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), attachment.file]);
    }
    return byOrder;
  }

  /** Order numbers are random: on the rare clash, the whole conversion is tried again with a new one (D10). */
  async withUniqueNumber<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (
          !(error instanceof UniqueConstraintViolationException) ||
          !String(error.message).includes('number') ||
          attempt >= 5
        )
          throw error;
      }
    }
  }
}

/** A document the translation engine can read: one with a text layer in which analysis found text (D11, D29). */
const machineReadable = (file: StoredFile): boolean => hasTextLayer(file.mimeType) && file.analysisNote !== 'no_text';

/** The checkout of an order's total, returning the payer to `redirectUrl` (D9). */
export const checkoutFor = (
  order: Pick<Order, 'id' | 'number' | 'totalCents' | 'currency'>,
  redirectUrl: string | null,
): CheckoutRequest => ({
  owner: { type: 'order', id: order.id },
  amountCents: order.totalCents,
  currency: order.currency,
  reference: order.number,
  description: `Translation order ${order.number}`,
  redirectUrl,
});

function assertConvertible(quote: Quote | null): asserts quote is Quote {
  if (!quote) throw new NotFoundError();
  const status = quoteStatus(quote);
  if (status !== QuoteStatus.PRICED) {
    throw ValidationError.of(
      'quote',
      status === QuoteStatus.EXPIRED ? 'The quote has expired.' : 'The quote has already been converted.',
    );
  }
}
