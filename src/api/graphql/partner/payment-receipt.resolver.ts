import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { Payment } from '../../../domain/payments/payment.entity';
import type { PaymentRead } from '../../../domain/payments/payment-read';
import type { GraphQLContext } from '../context';

/** A payment's receipt (D31), the same stable link on both doors. */
@Resolver(() => Payment)
export class PaymentReceiptResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      "The receipt of money received by card: a stable link that answers the payment's account (or staff) with a redirect to the PDF, signed for 5 minutes; send the same Authorization header. Null until paid, and for work placed on account (its invoice is the document).",
  })
  receiptUrl(@Root() payment: PaymentRead, @Ctx() { services }: GraphQLContext): string | null {
    return services.receipts.receiptUrl(payment);
  }
}
