import { Arg, Args, Ctx, Field, FieldResolver, ID, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { FileType } from '../../../domain/files/file.entity';
import type { OrderFileRead, OrderRead } from '../../../domain/orders/order-read';
import { listOrdersCommand } from '../../../domain/orders/order.commands';
import { Order, OrderStatus } from '../../../domain/orders/order.entity';
import { visibleOrderFiles } from '../../../domain/orders/order-visibility';
import { Shipment, shipmentOf } from '../../../domain/orders/shipment';
import { IssuedCertificate } from '../../../domain/certification/issued-certificate.entity';
import { checkoutReturnCommand } from '../../../domain/payments/payment.commands';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';

@ObjectType()
export class OrderFile {
  @Field(() => ID) id!: string;
  @Field(() => FileType) type!: FileType;
  @Field() name!: string;
  @Field(() => String, {
    nullable: true,
    description: 'A fresh signed link valid 5 minutes: translations and certificates, and for staff sources too.',
  })
  downloadUrl!: string | null;
}

@ObjectType()
class OrderPage extends PageOf(Order) {}

@ObjectType()
class ConvertedQuote {
  @Field(() => Order) order!: Order;
  @Field({ description: 'Send the customer here to pay.' }) approvalUrl!: string;
}

/** Orders on the partner door, over the same service as REST /orders. */
@Authorized(Role.ACCOUNT)
@Resolver(() => Order)
export class OrderResolver {
  /** Polled all day (D23): the order and its files come in one statement, so `files` is answered from it. */
  @Query(() => Order, {
    nullable: true,
    description:
      'One of your orders; null (with a NOT_FOUND error) for an unknown id, leaving the rest of the request answered.',
  })
  async order(
    @Ctx() { ctx, services, loaders, polledAnswer }: GraphQLContext,
    @Arg('id', () => ID) id: string,
  ): Promise<OrderRead> {
    const { order, files } = await services.orders.get(ctx, id, polledAnswer('order', id));
    loaders.orderFiles.prime(order.id, files);
    return order;
  }

  @Query(() => Order, {
    nullable: true,
    description:
      'One of your orders by its number, as e-mails and invoices print it (LT-2611-AB12CD, in any case); null (with a NOT_FOUND error) when you have none by that number. Poll with order(id).',
  })
  async orderByNumber(
    @Ctx() { ctx, services, loaders }: GraphQLContext,
    @Arg('number') number: string,
  ): Promise<OrderRead> {
    const { order, files } = await services.orders.getByNumber(ctx, number);
    loaders.orderFiles.prime(order.id, files);
    return order;
  }

  /** The page comes with its files, as `order` does: `files` is answered from it. */
  @Query(() => OrderPage, {
    description: 'Newest first; with `updatedSince`, the orders changed at or after it, oldest change first.',
  })
  async orders(
    @Ctx() { ctx, services, loaders }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('status', () => OrderStatus, { nullable: true }) status?: OrderStatus,
    @Arg('updatedSince', () => Date, {
      nullable: true,
      description: 'Poll for changes: pass the updatedAt of the last change you saw.',
    })
    updatedSince?: Date,
  ): Promise<PageResult<OrderRead>> {
    const page = await services.orders.list(
      ctx,
      graphqlCommand(listOrdersCommand, { status, updatedSince: updatedSince?.toISOString(), ...pageArgs }),
    );
    for (const { order, files } of page.items) loaders.orderFiles.prime(order.id, files);
    return toPageResult({ ...page, items: page.items.map((view) => view.order) });
  }

  @Authorized('orders.convert')
  @Mutation(() => ConvertedQuote)
  async convertQuote(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('redirectUrl', () => String, { nullable: true }) redirectUrl?: string,
    @Arg('onAccount', () => Boolean, {
      nullable: true,
      description:
        'Accounts on terms: place the order on account at once (processing, invoiced with the month). 422 under terms past the credit limit, with an invoice overdue, or without terms.',
    })
    onAccount?: boolean,
  ): Promise<ConvertedQuote> {
    const order = await services.orders.convert(ctx, id, graphqlCommand(checkoutReturnCommand, { redirectUrl }), {
      onAccount: onAccount === true,
    });
    return { order, approvalUrl: order.payment.approvalUrl! };
  }

  @Mutation(() => Order)
  async cancelOrder(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<OrderRead> {
    return (await services.orders.cancel(ctx, id)).order;
  }
}

/** Fields of Order for every caller (partner and staff). */
@Resolver(() => Order)
export class OrderFieldsResolver {
  @FieldResolver(() => [OrderFile], {
    description:
      'Clients: the sources, and the translations and certificates once completed. Staff: every file, each with a link.',
  })
  files(
    @Root() order: OrderRead,
    @Ctx() { ctx, loaders, services }: GraphQLContext,
  ): OrderFile[] | Promise<OrderFile[]> {
    const answer = (files: OrderFileRead[]): OrderFile[] =>
      visibleOrderFiles(ctx.actor, order, files).map((file) => ({
        id: file.id,
        type: file.type,
        name: file.name,
        downloadUrl: services.files.downloadUrl(file, ctx.actor),
      }));
    const files = loaders.orderFiles.load(order.id);
    return Array.isArray(files) ? answer(files) : files.then(answer);
  }

  @FieldResolver(() => Shipment, {
    nullable: true,
    description: 'The hard copies on their way, once staff hand them to a carrier.',
  })
  shipment(@Root() order: OrderRead): Shipment | null {
    return shipmentOf(order);
  }

  @FieldResolver(() => IssuedCertificate, {
    nullable: true,
    description:
      'The certificate of accuracy: for clients once a certified order is completed (its verificationCode and verifyUrl, D29); for staff as soon as it is issued.',
  })
  async certificate(
    @Root() order: OrderRead,
    @Ctx() { ctx, loaders }: GraphQLContext,
  ): Promise<IssuedCertificate | null> {
    // A polled read knows already whether there is one; the staff door sees it whatever the status.
    const shown = ctx.actor?.kind === 'staff' || order.status === OrderStatus.COMPLETED;
    return shown && order.certificateCode !== null ? loaders.certificates().load(order.id) : null;
  }

  @FieldResolver(() => ID)
  quoteId(@Root() order: OrderRead): string {
    return order.quote.id;
  }
}
