import { Arg, Args, Ctx, FieldResolver, ID, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import { listOrderMessagesCommand, postOrderMessageCommand } from '../../../domain/orders/order-message.commands';
import { OrderMessage } from '../../../domain/orders/order-message.entity';
import { Order } from '../../../domain/orders/order.entity';
import { pageRequest } from '../../../domain/shared/pagination';
import { graphqlCommand } from '../../commands';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';

@ObjectType()
class OrderMessagePage extends PageOf(OrderMessage) {}

/** An order's conversation with the desk (D30): the client writes here; both sides read it on the order. */
@Resolver(() => Order)
export class OrderMessageResolver {
  @Authorized('orders.message')
  @Mutation(() => OrderMessage, {
    description:
      'Writes to the desk about one of your orders (at most 4,000 characters); e-mailed to staff. An order on hold waiting for your answer (holdReason `awaiting_client`) resumes.',
  })
  postOrderMessage(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('orderId', () => ID) orderId: string,
    @Arg('text') text: string,
  ): Promise<OrderMessage> {
    return services.orderMessages.post(ctx, orderId, graphqlCommand(postOrderMessageCommand, { text }));
  }

  /** Read for a whole page of orders at once (one statement per page of orders, the loader's). */
  @FieldResolver(() => OrderMessagePage, {
    description: 'The conversation between the client and the desk about the order, newest first.',
  })
  async messages(
    @Root() order: Pick<Order, 'id'>,
    @Ctx() { loaders }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
  ): Promise<PageResult<OrderMessage>> {
    const request = pageRequest(graphqlCommand(listOrderMessagesCommand, pageArgs));
    return toPageResult(await loaders.orderMessages(request).load(order.id));
  }
}
