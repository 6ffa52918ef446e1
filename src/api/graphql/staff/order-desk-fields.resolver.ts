import { Ctx, FieldResolver, ID, Resolver, Root } from 'type-graphql';
import { Account } from '../../../domain/identity/account.entity';
import { Notarization } from '../../../domain/certification/notarization.entity';
import { OrderNote } from '../../../domain/orders/order-note.entity';
import { Order } from '../../../domain/orders/order.entity';
import { TranslationReview } from '../../../domain/certification/translation-review.entity';
import { StaffUser } from '../../../domain/identity/staff-user.entity';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';

/** What staff see of an order beyond the client's view (D18, D19, D21); each field is refused to account keys. */
@Resolver(() => Order)
export class OrderDeskFieldsResolver {
  @Authorized(Role.STAFF)
  @FieldResolver(() => Account, { nullable: true, description: 'Staff only: whose order it is.' })
  account(@Root() order: Pick<Order, 'account'>, @Ctx() { ctx, services }: GraphQLContext): Promise<Account> {
    return services.orderDesk.account(ctx, order);
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => StaffUser, { nullable: true, description: 'Staff only: the reviewer the order is assigned to.' })
  assignee(
    @Root() order: Pick<Order, 'assignee'>,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<StaffUser | null> {
    return services.orderDesk.assignee(ctx, order);
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => [OrderNote], { nullable: true, description: 'Staff only: internal notes, oldest first.' })
  notes(@Root() order: Pick<Order, 'id'>, @Ctx() { loaders }: GraphQLContext): Promise<OrderNote[]> {
    return loaders.orderNotes().load(order.id);
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => [TranslationReview], {
    nullable: true,
    description: 'Staff only: the review of each current translation; a translation without one is unreviewed.',
  })
  reviews(@Root() order: Pick<Order, 'id'>, @Ctx() { loaders }: GraphQLContext): Promise<TranslationReview[]> {
    return loaders.reviews().load(order.id);
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => Notarization, { nullable: true, description: 'Staff only: the recorded notarization.' })
  notarization(@Root() order: Pick<Order, 'id'>, @Ctx() { loaders }: GraphQLContext): Promise<Notarization | null> {
    return loaders.notarizations().load(order.id);
  }
}

@Resolver(() => Notarization)
export class NotarizationFieldsResolver {
  @FieldResolver(() => ID, {
    nullable: true,
    description: 'The notarized scan, one of the order files (type CERTIFICATE).',
  })
  scanFileId(@Root() notarization: Notarization): string | null {
    return notarization.scan?.id ?? null;
  }
}
