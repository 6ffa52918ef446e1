import { LockMode, type EntityManager } from '@mikro-orm/core';
import type { PaymentProvider } from '../../providers/payment/payment-provider';
import { NotFoundError, ValidationError } from '../shared/errors';
import { isStorableText } from '../shared/validation';
import { Payment, PaymentStatus } from './payment.entity';

/** What owns a payment (an order, later a booking) and moves on when it is paid, or when a paid one is reversed. */
export interface PaymentOwner {
  /** Called inside the confirming transaction; false when this owner does not hold the payment. */
  paymentConfirmed(em: EntityManager, payment: Payment): Promise<boolean>;
  /** The provider took a completed payment back (a reversal, a chargeback): the owner needs staff attention. */
  paymentReversed(em: EntityManager, payment: Payment, reason: string): Promise<boolean>;
}

/**
 * Checkouts and their one idempotent confirmation: the sandbox Pay button, PayPal's return and its webhooks
 * all end in `confirm`, which locks the payment, so a race confirms once.
 */
export class PaymentService {
  private readonly owners: PaymentOwner[] = [];

  constructor(readonly provider: PaymentProvider) {}

  registerOwner(owner: PaymentOwner): void {
    this.owners.push(owner);
  }

  /** A new payment with its hosted checkout; the caller persists it in its own transaction. */
  async startCheckout(input: { amountCents: number; currency: string; reference: string; description: string; redirectUrl: string | null }): Promise<Payment> {
    const payment = Object.assign(new Payment(), {
      provider: this.provider.name,
      description: input.description,
      amountCents: input.amountCents,
      currency: input.currency,
      redirectUrl: input.redirectUrl,
    });
    const checkout = await this.provider.createCheckout({
      requestId: payment.id,
      reference: input.reference,
      description: input.description,
      amountCents: input.amountCents,
      currency: input.currency,
    });
    payment.providerOrderId = checkout.providerOrderId;
    payment.approvalUrl = checkout.approvalUrl;
    return payment;
  }

  async findByProviderOrderId(em: EntityManager, providerOrderId: string): Promise<Payment> {
    // A checkout id comes from a URL (the sandbox page, PayPal's return): text PostgreSQL refuses matches nothing (D25).
    if (!isStorableText(providerOrderId)) throw new NotFoundError();
    const payment = await em.findOne(Payment, { providerOrderId });
    if (!payment) throw new NotFoundError();
    return payment;
  }

  /**
   * Captures (unless the provider already reports the capture) and marks paid, then lets the owner move on,
   * in one transaction that locks the payment. Confirming twice, or from two paths at once, changes nothing.
   */
  async confirm(em: EntityManager, providerOrderId: string, known?: { captureId: string }): Promise<Payment> {
    return em.transactional(async (tx) => {
      const payment = await tx.findOne(Payment, { providerOrderId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!payment) throw new NotFoundError();
      if (payment.status === PaymentStatus.COMPLETED) return payment;
      if (payment.status !== PaymentStatus.CREATED) throw ValidationError.of('payment', 'This checkout can no longer be paid.');
      const capture = known ? ({ status: 'completed', ...known } as const) : await this.provider.capture(providerOrderId);
      if (capture.status !== 'completed') throw ValidationError.of('payment', 'The payment was declined.');
      Object.assign(payment, { status: PaymentStatus.COMPLETED, captureId: capture.captureId, paidAt: new Date() });
      await tx.flush();
      for (const owner of this.owners) if (await owner.paymentConfirmed(tx, payment)) break;
      return payment;
    });
  }

  /** A completed payment taken back by the provider: the owner is put on hold for staff. */
  async reversed(em: EntityManager, providerOrderId: string, reason: string): Promise<void> {
    await em.transactional(async (tx) => {
      const payment = await tx.findOne(Payment, { providerOrderId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!payment || payment.status !== PaymentStatus.COMPLETED) return;
      for (const owner of this.owners) if (await owner.paymentReversed(tx, payment, reason)) break;
    });
  }

  /** Unpaid: withdraw the checkout. Paid: refund it through the provider. Either way in the caller's transaction. */
  async settleCancellation(payment: Payment): Promise<void> {
    if (payment.status === PaymentStatus.CREATED) {
      if (payment.providerOrderId) await this.provider.void(payment.providerOrderId);
      payment.status = PaymentStatus.VOIDED;
    } else if (payment.status === PaymentStatus.COMPLETED) {
      await this.provider.refund(payment.captureId!, payment.amountCents, payment.currency);
      Object.assign(payment, { status: PaymentStatus.REFUNDED, refundedAt: new Date() });
    }
  }
}
