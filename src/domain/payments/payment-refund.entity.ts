import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property, type Rel, Unique } from '@mikro-orm/core';
import { newId } from '../shared/ids';
import { Payment } from './payment.entity';

/**
 * Money that went back to the payer for one payment (D26): its amounts add up to the payment's `refundedCents`.
 * The provider's refund id counts a refund once however it is heard of (our own refund's answer, its webhook, a
 * redelivery); null for money a capture look-up showed went back without saying which refund it was.
 */
@Entity({ tableName: 'payment_refunds' })
@Unique({ properties: ['payment', 'providerRefundId'] })
export class PaymentRefund {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?: 'createdAt' | 'invoiceId' | 'providerRefundId';

  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => Payment, { deleteRule: 'cascade' })
  payment!: Rel<Payment>;

  @Property({ type: 'string', length: 100, nullable: true })
  providerRefundId: string | null = null;

  /** What this refund added to the payment's refunded amount (never past what was captured). */
  @Property({ type: 'integer' })
  amountCents!: number;

  /** A refund of work on account (D31): the invoice it is a credit on; null until the month closes. */
  @ManyToOne({ entity: 'Invoice', mapToPk: true, fieldName: 'invoice_id', nullable: true, deleteRule: 'set null' })
  invoiceId: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
