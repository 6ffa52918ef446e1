import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { newId } from '../shared/ids';
import { Payment } from './payment.entity';

export enum StaffRefundStatus {
  /** Asked of the provider, its answer not applied yet: the amount is held back from what staff may still refund. */
  PENDING = 'pending',
  MADE = 'made',
  /** The provider would not make it (refused for good, or less was left there); nothing was counted. */
  REFUSED = 'refused',
}

/** What a staff refund's request id starts with, before the refund's id. */
export const STAFF_REFUND_PREFIX = 'staff-refund-';

/**
 * A refund staff decided without cancelling (D30): part or all of what a payment captured, with the reason the client is
 * told. Its id is the provider's request id, so an answer lost on the way is asked again as the same refund; once made,
 * its money is counted in `payment_refunds` as any refund is.
 */
@Entity({ tableName: 'staff_refunds' })
@Index({ properties: ['status', 'inFlightSince'] })
export class StaffRefund {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?: 'createdAt' | 'inFlightSince' | 'providerRefundId' | 'refusal' | 'requestId' | 'status';

  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => Payment, { deleteRule: 'cascade' })
  payment!: Rel<Payment>;

  @Property({ type: 'integer' })
  amountCents!: number;

  @Property({ type: 'string', length: 500 })
  reason!: string;

  @Enum({ items: () => StaffRefundStatus })
  status: StaffRefundStatus = StaffRefundStatus.PENDING;

  @Property({ type: 'string', length: 100, nullable: true })
  providerRefundId: string | null = null;

  /** Why the provider would not make it, in its own words. */
  @Property({ type: 'text', nullable: true })
  refusal: string | null = null;

  /** When the provider call went out; null when none is under way (`reconcile` asks again after a minute). */
  @Property({ type: 'datetime', nullable: true })
  inFlightSince: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** What the provider is told, so the same refund asked twice is made once. */
  get requestId(): string {
    return `${STAFF_REFUND_PREFIX}${this.id}`;
  }
}
