import { FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { OrderRead } from '../../../domain/orders/order-read';
import { Order } from '../../../domain/orders/order.entity';
import type { PaymentRead } from '../../../domain/payments/payment-read';
import { Payment } from '../../../domain/payments/payment.entity';
import { QuotedAddon } from '../../../domain/quotes/quoted-addon';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';

/**
 * An order's money: the client reads it on its own orders, the desk on every order, a translator never (D28,
 * STAFF_READ_LIMITS). Each field answers what the order holds; the auth checker decides who may ask.
 */
@Resolver(() => Order)
export class OrderMoneyFieldsResolver {
  @Authorized(Role.READ_LIMITED)
  @FieldResolver(() => Int, { description: 'The units times the unit price, in cents of `currency`.' })
  subtotalCents(@Root() order: OrderRead): number {
    return order.subtotalCents;
  }

  @Authorized(Role.READ_LIMITED)
  @FieldResolver(() => [QuotedAddon])
  addons(@Root() order: OrderRead): QuotedAddon[] {
    return order.addons;
  }

  @Authorized(Role.READ_LIMITED)
  @FieldResolver(() => Int)
  addonsTotalCents(@Root() order: OrderRead): number {
    return order.addonsTotalCents;
  }

  @Authorized(Role.READ_LIMITED)
  @FieldResolver(() => Int)
  totalCents(@Root() order: OrderRead): number {
    return order.totalCents;
  }

  @Authorized(Role.READ_LIMITED)
  @FieldResolver(() => String, { description: 'ISO 4217 code of the amounts.' })
  currency(@Root() order: OrderRead): string {
    return order.currency;
  }

  @Authorized(Role.READ_LIMITED)
  @FieldResolver(() => Payment)
  payment(@Root() order: OrderRead): PaymentRead {
    return order.payment;
  }
}
