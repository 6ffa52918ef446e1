import { wrap } from '@mikro-orm/core';
import { FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { PaymentRead } from '../../../domain/payments/payment-read';
import { Payment, PaymentStatus } from '../../../domain/payments/payment.entity';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';

/**
 * What staff see of a payment beyond the client's view (D26): its state, and its books (captured = kept +
 * refunded, refunds in part included), so a refund the provider refused for good is seen and settled by hand.
 * Each field is refused to account keys; null for a booking's payment before its checkout exists.
 */
@Resolver(() => Payment)
export class PaymentDeskFieldsResolver {
  @Authorized(Role.STAFF)
  @FieldResolver(() => PaymentStatus, {
    nullable: true,
    description: 'Staff only: REFUND_REFUSED when the provider refused the refund for good.',
  })
  async status(@Root() payment: PaymentRead): Promise<PaymentStatus | null> {
    return (await loaded(payment))?.status ?? null;
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => Int, {
    nullable: true,
    description: 'Staff only: money the provider took, in cents of `currency`.',
  })
  async capturedCents(@Root() payment: PaymentRead): Promise<number | null> {
    return (await loaded(payment))?.capturedCents ?? null;
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => Int, {
    nullable: true,
    description:
      'Staff only: refunds staff asked of the provider whose answers are not in yet (D30), held back from what may still be refunded.',
  })
  async refundPendingCents(@Root() payment: PaymentRead): Promise<number | null> {
    return (await loaded(payment))?.refundPendingCents ?? null;
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => String, { nullable: true, description: 'Staff only: ISO 4217 code of the amounts.' })
  async currency(@Root() payment: PaymentRead): Promise<string | null> {
    return (await loaded(payment))?.currency ?? null;
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => String, {
    nullable: true,
    description: 'Staff only: why the provider refused the refund for good, in its words.',
  })
  async refundRefusal(@Root() payment: PaymentRead): Promise<string | null> {
    return (await loaded(payment))?.refundRefusal ?? null;
  }
}

/** Staff views carry the entity (loaded with its order, or a reference for a booking); client reads carry none. */
async function loaded(payment: PaymentRead): Promise<Payment | null> {
  if (!(payment instanceof Payment)) return null;
  return wrap(payment).isInitialized() ? payment : wrap(payment).init();
}
