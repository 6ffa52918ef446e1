import { Arg, Ctx, Field, ID, Mutation, ObjectType, Resolver } from 'type-graphql';
import type { BookingRead } from '../../../domain/bookings/booking-read';
import { Booking } from '../../../domain/bookings/booking.entity';
import type { OrderRead } from '../../../domain/orders/order-read';
import { Order } from '../../../domain/orders/order.entity';
import { checkoutReturnCommand } from '../../../domain/payments/payment.commands';
import { ValidationError } from '../../../shared/errors';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';

@ObjectType()
class RenewedCheckout {
  @Field({ description: 'Send the customer here to pay; the previous checkout no longer pays.' }) approvalUrl!: string;
  @Field(() => Order, { nullable: true, description: 'The order, when an order was renewed.' })
  order!: OrderRead | null;
  @Field(() => Booking, { nullable: true, description: 'The booking, when a booking was renewed.' })
  interpretationBooking!: BookingRead | null;
}

/** A lost checkout issued again (D29), over the same services as REST's POST /orders/{id}/checkout and its booking twin. */
@Authorized(Role.ACCOUNT)
@Resolver()
export class CheckoutResolver {
  @Authorized('orders.renew_checkout', 'bookings.renew_checkout')
  @Mutation(() => RenewedCheckout, {
    description:
      'A fresh checkout for an unpaid order or booking (exactly one of orderId and bookingId); the old checkout is voided. Refused while a payment is being processed, and for a booking whose start has passed.',
  })
  async renewCheckout(
    @Ctx() { ctx, services, loaders }: GraphQLContext,
    @Arg('orderId', () => ID, { nullable: true }) orderId?: string,
    @Arg('bookingId', () => ID, { nullable: true }) bookingId?: string,
    @Arg('redirectUrl', () => String, {
      nullable: true,
      description: 'Where the payer returns; by default where the old checkout sent them.',
    })
    redirectUrl?: string,
  ): Promise<RenewedCheckout> {
    if ((orderId == null) === (bookingId == null))
      throw ValidationError.of('order_id', 'Give exactly one of orderId and bookingId.');
    const command = graphqlCommand(checkoutReturnCommand, { redirectUrl });
    if (orderId != null) {
      const { order, files } = await services.orders.renewCheckout(ctx, orderId, command);
      loaders.orderFiles.prime(order.id, files);
      return { approvalUrl: order.payment.approvalUrl!, order, interpretationBooking: null };
    }
    const booking = await services.bookings.renewCheckout(ctx, bookingId, command);
    return { approvalUrl: booking.payment!.approvalUrl!, order: null, interpretationBooking: booking };
  }
}
