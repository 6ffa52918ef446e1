import { Authorized, Ctx, FieldResolver, ID, Resolver, Root } from 'type-graphql';
import { Account } from '../../../domain/accounts/account.entity';
import { IssuedCertificate } from '../../../domain/orders/issued-certificate.entity';
import { Notarization } from '../../../domain/orders/notarization.entity';
import { OrderNote } from '../../../domain/orders/order-note.entity';
import { Order } from '../../../domain/orders/order.entity';
import { TranslationReview } from '../../../domain/orders/translation-review.entity';
import { StaffUser } from '../../../domain/staff/staff-user.entity';
import { Role } from '../auth-checker';
import type { GraphQLContext } from '../context';

/** What staff see of an order beyond the client's view (D18, D19, D21); each field is refused to account keys. */
@Resolver(() => Order)
export class OrderDeskFieldsResolver {
  @Authorized(Role.STAFF)
  @FieldResolver(() => Account, { nullable: true, description: 'Staff only: whose order it is.' })
  account(@Root() order: Order, @Ctx() { ctx }: GraphQLContext): Promise<Account> {
    // Loaded with the order by staffOrders and staffOrder; the identity map answers without a query then.
    return ctx.em.findOneOrFail(Account, { id: order.account.id });
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => StaffUser, { nullable: true, description: 'Staff only: the reviewer the order is assigned to.' })
  async assignee(@Root() order: Order, @Ctx() { ctx }: GraphQLContext): Promise<StaffUser | null> {
    return order.assignee ? ctx.em.findOneOrFail(StaffUser, { id: order.assignee.id }) : null;
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => [OrderNote], { nullable: true, description: 'Staff only: internal notes, oldest first.' })
  notes(@Root() order: Order, @Ctx() { ctx, services }: GraphQLContext): Promise<OrderNote[]> {
    return services.orderDesk.notes(ctx, order.id);
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => [TranslationReview], { nullable: true, description: 'Staff only: the review of each current translation; a translation without one is unreviewed.' })
  reviews(@Root() order: Order, @Ctx() { ctx, services }: GraphQLContext): Promise<TranslationReview[]> {
    return services.certifiedReview.reviews(ctx, order.id);
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => Notarization, { nullable: true, description: 'Staff only: the recorded notarization.' })
  notarization(@Root() order: Order, @Ctx() { ctx, services }: GraphQLContext): Promise<Notarization | null> {
    return services.orderDesk.notarization(ctx, order.id);
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => IssuedCertificate, { nullable: true, description: 'Staff only: the issued certificate and its verification code.' })
  certificate(@Root() order: Order, @Ctx() { ctx, services }: GraphQLContext): Promise<IssuedCertificate | null> {
    return services.orderDesk.certificate(ctx, order.id);
  }
}

@Resolver(() => Notarization)
export class NotarizationFieldsResolver {
  @FieldResolver(() => ID, { nullable: true, description: 'The notarized scan, one of the order files (type CERTIFICATE).' })
  scanFileId(@Root() notarization: Notarization): string | null {
    return notarization.scan?.id ?? null;
  }
}
