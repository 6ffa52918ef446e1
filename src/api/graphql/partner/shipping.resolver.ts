import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import type { OrderRead } from '../../../domain/orders/order-read';
import { Order } from '../../../domain/orders/order.entity';
import { shippingAddressRequired } from '../../../domain/orders/shipment';
import { setShippingAddressCommand } from '../../../domain/orders/shipping.commands';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { ShippingAddressInput } from '../types/shipping-address.input';

/** Where an order's hard copies go (D22), over the same service as REST `PUT /orders/{id}/shipping_address`. */
@Authorized(Role.ACCOUNT)
@Resolver(() => Order)
export class ShippingResolver {
  @Authorized('orders.set_shipping_address')
  @Mutation(() => Order, {
    description:
      'Sets or changes where the hard copies of your order go, at any time before they ship (not on a cancelled order). The same address again changes nothing.',
  })
  async setShippingAddress(
    @Ctx() { ctx, services, loaders }: GraphQLContext,
    @Arg('orderId', () => ID) orderId: string,
    @Arg('address', () => ShippingAddressInput) address: ShippingAddressInput,
  ): Promise<OrderRead> {
    const { order, files } = await services.shipping.setAddress(
      ctx,
      orderId,
      graphqlCommand(setShippingAddressCommand, address),
    );
    loaders.orderFiles.prime(order.id, files);
    return order;
  }
}

/** The shipping fields of Order for every caller (partner and staff). */
@Resolver(() => Order)
export class OrderShippingFieldsResolver {
  @FieldResolver(() => Boolean, {
    description: 'Hard copies were ordered and have no address yet: set one with setShippingAddress.',
  })
  shippingAddressRequired(@Root() order: OrderRead): boolean {
    return shippingAddressRequired(order);
  }
}
