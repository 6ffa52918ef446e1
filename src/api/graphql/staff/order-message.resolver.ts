import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { postStaffOrderMessageCommand } from '../../../domain/orders/order-message.commands';
import { OrderMessage } from '../../../domain/orders/order-message.entity';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';

/** Staff write to the client about an order (D30). */
@Authorized(Role.STAFF)
@Resolver()
export class StaffOrderMessageResolver {
  @Mutation(() => OrderMessage, {
    description:
      'Writes to the client about the order (at most 4,000 characters), e-mailed to the account and to the member who placed it. With waitForClient the order goes on hold (holdReason `awaiting_client`) until the client answers, which resumes it. A translator writes on their own assignments only.',
  })
  postStaffOrderMessage(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('orderId', () => ID) orderId: string,
    @Arg('text') text: string,
    @Arg('waitForClient', () => Boolean, { nullable: true, defaultValue: false }) waitForClient: boolean,
  ): Promise<OrderMessage> {
    return services.orderMessages.postAsStaff(
      ctx,
      orderId,
      graphqlCommand(postStaffOrderMessageCommand, { text, waitForClient }),
    );
  }
}
