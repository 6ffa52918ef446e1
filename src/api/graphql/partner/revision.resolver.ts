import { Arg, Authorized, Ctx, Field, FieldResolver, ID, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import type { OrderLink, OrderRead } from '../../../domain/orders/order-read';
import { Order } from '../../../domain/orders/order.entity';
import { requestRevisionCommand } from '../../../domain/orders/revision.commands';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import type { GraphQLContext } from '../context';
import { OrderFile } from './order.resolver';

@ObjectType({ description: 'Another order, named: a revision, or the order a revision revises (D30).' })
class OrderRevisionLink {
  @Field(() => ID) id!: string;
  @Field() number!: string;
}

/** Free revisions of completed orders (D30), over the same service as REST `POST /orders/{id}/revisions`. */
@Authorized(Role.ACCOUNT)
@Resolver(() => Order)
export class RevisionResolver {
  @Authorized('orders.request_revision')
  @Mutation(() => Order, {
    description:
      'Asks for a free revision of an order completed within the last 30 days: a new order, total 0, nothing to pay, linked by revisionOf. One revision of an order may be open at a time.',
  })
  async requestRevision(
    @Ctx() { ctx, services, loaders }: GraphQLContext,
    @Arg('orderId', () => ID) orderId: string,
    @Arg('reason', { description: 'What should be revised; at most 2,000 characters.' }) reason: string,
    @Arg('fileIds', () => [ID], { nullable: true, description: 'Reference files you uploaded (POST /files).' })
    fileIds?: string[],
  ): Promise<OrderRead> {
    const { order, files } = await services.revisions.request(
      ctx,
      orderId,
      graphqlCommand(requestRevisionCommand, { reason, fileIds }),
    );
    loaders.orderFiles.prime(order.id, files);
    return order;
  }
}

/** The revision fields of Order for every caller (partner and staff). */
@Resolver(() => Order)
export class OrderRevisionFieldsResolver {
  @FieldResolver(() => OrderRevisionLink, { nullable: true, description: 'For a revision: the order it revises.' })
  async revisionOf(@Root() order: OrderRead, @Ctx() { ctx, services }: GraphQLContext): Promise<OrderLink | null> {
    return (await services.revisions.linksOf(ctx.em, order)).revisionOf;
  }

  @FieldResolver(() => [OrderRevisionLink], { description: "This order's revisions, oldest first." })
  async revisions(@Root() order: OrderRead, @Ctx() { ctx, services }: GraphQLContext): Promise<OrderLink[]> {
    return (await services.revisions.linksOf(ctx.em, order)).revisions;
  }

  @FieldResolver(() => [OrderFile], {
    description:
      'For a revision: the reference files the client gave with the request (never translated or delivered); staff get a link.',
  })
  async referenceFiles(@Root() order: OrderRead, @Ctx() { ctx, services }: GraphQLContext): Promise<OrderFile[]> {
    const { referenceFileIds } = await services.revisions.linksOf(ctx.em, order);
    return (await services.revisions.filesById(ctx.em, referenceFileIds)).map((file) => ({
      id: file.id,
      type: file.type,
      name: file.name,
      downloadUrl: services.files.downloadUrl(file, ctx.actor),
    }));
  }
}
