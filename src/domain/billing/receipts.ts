import type { EntityManager } from '@mikro-orm/core';
import type { ReceiptContent } from '../../documents/receipt-pdf';
import { NotFoundError } from '../../shared/errors';
import { Booking } from '../bookings/booking.entity';
import { Account } from '../identity/account.entity';
import type { Ctx } from '../identity/context';
import { approvedAccount, requireStaff } from '../identity/guards';
import { authorizePartner } from '../identity/partner-permissions';
import { requireStaffMayRead } from '../identity/staff-permissions';
import { Order } from '../orders/order.entity';
import { PaymentRefund } from '../payments/payment-refund.entity';
import { NO_PROVIDER, Payment } from '../payments/payment.entity';
import type { PaymentRead } from '../payments/payment-read';
import type { PaymentService } from '../payments/payment.service';
import { isId } from '../shared/ids';
import { formatMoney } from '../shared/money';
import type { SignedPdfLinks } from './signed-pdf-links';

/** How a receipt names the provider the money came through. */
const PROVIDER_NAMES: Record<string, string> = { paypal: 'PayPal', sandbox: 'Sandbox checkout (test payments)' };

/**
 * Receipts of money received by card (D31): each captured card payment of an order or a booking has one. Its
 * `receipt_url` is stable (the payment's own path, so a polled answer's ETag holds, D23) and answers, to the account
 * that owns the payment or to staff who may see payments, with a fresh 5-minute link to the PDF. Work on account has
 * no receipt: its invoice is the document.
 */
export class ReceiptService {
  constructor(
    private readonly deps: {
      appUrl: string;
      links: SignedPdfLinks;
      payments: PaymentService;
      company: ReceiptContent['company'];
    },
  ) {}

  /** The stable link of `payment`'s receipt, or null when it has none (not paid, placed on account, or free). */
  receiptUrl(payment: Pick<PaymentRead, 'id' | 'provider' | 'paidAt'>): string | null {
    return payment.id && payment.paidAt && !this.deps.payments.isOnAccount(payment) && payment.provider !== NO_PROVIDER
      ? `${this.deps.appUrl}/api/v1/payments/${payment.id}/receipt`
      : null;
  }

  /**
   * A fresh signed link to the PDF of payment `id`'s receipt, for the account that owns the payment (whatever its
   * members' role, as they read its orders and bookings) or for staff whose role may read payments (D28). Another
   * account's payment, one without a receipt, and an unknown id are the same not-found.
   */
  async link(ctx: Ctx, id: unknown): Promise<string> {
    const staff = ctx.actor?.kind === 'staff';
    if (staff) requireStaffMayRead(requireStaff(ctx.actor).role, 'Order.payment');
    const account = staff ? null : approvedAccount(ctx.actor);
    const payment = isId(id) ? await ctx.em.findOne(Payment, { id }) : null;
    if (!payment || !this.receiptUrl(payment)) throw new NotFoundError();
    if (account) {
      authorizePartner(account, payment.orderId ? 'orders.read' : 'bookings.read');
      const owner = await this.owner(ctx.em, payment);
      if (owner.account.id !== account.accountId) throw new NotFoundError();
    }
    return this.deps.links.url(payment.id);
  }

  /** Whether a link to payment `id`'s receipt PDF is ours and still valid. */
  verify(id: string, expires: unknown, signature: unknown): boolean {
    return this.deps.links.verify(id, expires, signature);
  }

  /** The receipt of payment `id` as a PDF's facts, for its signed link; null when it has none. */
  async content(em: EntityManager, id: string): Promise<ReceiptContent | null> {
    const payment = isId(id) ? await em.findOne(Payment, { id }) : null;
    if (!payment || !payment.paidAt || !this.receiptUrl(payment)) return null;
    const owner = await this.owner(em, payment);
    const account = await em.findOneOrFail(Account, { id: owner.account.id });
    const refunds = await em.find(
      PaymentRefund,
      { payment: payment.id, amountCents: { $gt: 0 } },
      { orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    const money = (cents: number) => formatMoney(cents, payment.currency);
    const refundedCents = refunds.reduce((sum, refund) => sum + refund.amountCents, 0);
    return {
      company: this.deps.company,
      billTo: { name: account.name, email: account.email },
      paidFor: `${owner instanceof Order ? 'Order' : 'Booking'} ${owner.number}`,
      reference: owner.reference,
      purchaseOrder: owner instanceof Order ? owner.purchaseOrder : null,
      paidAt: payment.paidAt,
      paymentReference: payment.captureId ?? payment.providerOrderId ?? payment.id,
      provider: PROVIDER_NAMES[payment.provider] ?? payment.provider,
      lines: (await this.lines(em, payment)).map((line) => ({
        description: line.label,
        amount: money(line.amountCents),
      })),
      refunds: refunds.map((refund) => ({ date: refund.createdAt, amount: money(refund.amountCents) })),
      totals: {
        paid: money(payment.capturedCents),
        refunded: money(refundedCents),
        kept: money(payment.capturedCents - refundedCents),
      },
    };
  }

  /**
   * What was paid for, line by line as the checkout showed it; the payment's own description when its owner no longer
   * holds it (a renewed checkout's, D29) or the lines do not come to what was captured (an overtime's).
   */
  private async lines(em: EntityManager, payment: Payment) {
    const summary = await this.deps.payments.summarize(em, payment);
    const total = summary?.lines.reduce((sum, line) => sum + line.amountCents, 0);
    return summary && total === payment.capturedCents
      ? summary.lines
      : [{ label: payment.description, amountCents: payment.capturedCents }];
  }

  private async owner(em: EntityManager, payment: Payment): Promise<Order | Booking> {
    const { type, id } = payment.owner;
    return type === 'order' ? em.findOneOrFail(Order, { id }) : em.findOneOrFail(Booking, { id });
  }
}
