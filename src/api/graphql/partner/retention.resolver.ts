import { Arg, Ctx, ID, Int, Mutation, Resolver } from 'type-graphql';
import { Account } from '../../../domain/identity/account.entity';
import { Order } from '../../../domain/orders/order.entity';
import type { OrderRead } from '../../../domain/orders/order-read';
import { setLegalHoldCommand, setRetentionCommand } from '../../../domain/retention/retention.commands';
import { graphqlCommand } from '../../commands';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';

/** Keeping and deleting client documents (D33): the account's period, an order's legal hold, a deletion now. */
@Resolver()
export class RetentionResolver {
  @Authorized('account.retention')
  @Mutation(() => Account, {
    description:
      "Admin members: how many days (1 to 3650) an order's documents are kept after it is completed or cancelled; null keeps them.",
  })
  setRetention(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('days', () => Int, { nullable: true }) days: number | null,
  ): Promise<Account> {
    return services.retention.setRetention(ctx, graphqlCommand(setRetentionCommand, { days }));
  }

  // Admin members on their own orders and desk staff on any: the service asks each table (D27, D28).
  @Mutation(() => Order, {
    description:
      "Admin members and desk staff: a legal hold keeps the order's documents whatever the retention period; a reason is required to place one.",
  })
  setLegalHold(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('orderId', () => ID) orderId: string,
    @Arg('on') on: boolean,
    @Arg('reason', () => String, { nullable: true }) reason?: string | null,
  ): Promise<Order> {
    services.retention.legalHoldCaller(ctx.actor); // the caller's role first, whatever the input (D27)
    return services.retention.setLegalHold(ctx, orderId, graphqlCommand(setLegalHoldCommand, { on, reason }));
  }

  @Authorized('orders.delete_documents')
  @Mutation(() => Order, {
    description:
      "Deletes a completed or cancelled order's documents now (sources, translations, reference files); its certificate stays.",
  })
  async deleteOrderDocuments(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
  ): Promise<OrderRead> {
    await services.retention.deleteDocuments(ctx, id);
    return (await services.orders.get(ctx, id)).order;
  }
}
