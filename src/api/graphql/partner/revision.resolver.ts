import { Arg, Ctx, Field, FieldResolver, ID, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import type { OrderRead, RevisionLink } from '../../../domain/orders/order-read';
import { Order, OrderStatus } from '../../../domain/orders/order.entity';
import { revisionWindowClosesAt } from '../../../domain/orders/revision-window';
import { requestRevisionCommand } from '../../../domain/orders/revision.commands';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { OrderFile } from './order.resolver';

@ObjectType({ description: 'Another order, named: a revision, or the order a revision revises (D30).' })
class OrderRevisionLink {
  @Field(() => ID) id!: string;
  @Field() number!: string;
  @Field(() => OrderStatus, {
    description:
      'Its status. A revision is open while neither COMPLETED nor CANCELLED: no other may be asked for then; a COMPLETED one replaces the order it revises.',
  })
  status!: OrderStatus;
}

/** Free revisions of completed orders (D30), over the same service as REST `POST /orders/{id}/revisions`. */
@Authorized(Role.ACCOUNT)
@Resolver(() => Order)
export class RevisionResolver {
  @Authorized('orders.request_revision')
  @Mutation(() => Order, {
    description:
      'Asks for a free revision of a completed order until its revisionWindowClosesAt (30 days after the first delivery; a revision never restarts them): a new order, total 0, nothing to pay, linked by revisionOf. One revision may be open at a time, and only the latest version is revised: a completed revision replaces the order it revises.',
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
  async revisionOf(@Root() order: OrderRead, @Ctx() { loaders }: GraphQLContext): Promise<RevisionLink | null> {
    return order.revisionOf !== undefined
      ? order.revisionOf
      : (await loaders.revisionLinks().load(order.id)).revisionOf;
  }

  @FieldResolver(() => [OrderRevisionLink], { description: "This order's revisions, oldest first." })
  async revisions(@Root() order: OrderRead, @Ctx() { loaders }: GraphQLContext): Promise<RevisionLink[]> {
    return (readWith(order) ?? (await loaders.revisionLinks().load(order.id))).revisions;
  }

  @FieldResolver(() => Date, {
    nullable: true,
    description:
      'The end of the free-revision window: 30 days after the first delivery of this work (for a revision, of the order its chain began with). Null until the work is first delivered.',
  })
  revisionWindowClosesAt(@Root() order: OrderRead): Date | null {
    return revisionWindowClosesAt(order);
  }

  @FieldResolver(() => [OrderFile], {
    description:
      'For a revision: the reference files the client gave with the request (never translated or delivered); staff get a link.',
  })
  async referenceFiles(
    @Root() order: OrderRead,
    @Ctx() { ctx, services, loaders }: GraphQLContext,
  ): Promise<OrderFile[]> {
    const polled = readWith(order);
    const files = polled
      ? await services.revisions.filesById(ctx.em, polled.referenceFileIds)
      : (await loaders.revisionLinks().load(order.id)).referenceFiles;
    return files.map((file) => ({
      id: file.id,
      type: file.type,
      name: file.name,
      downloadUrl: services.files.downloadUrl(file, ctx.actor),
    }));
  }
}

/** The links a polled read carries with its order (D23); an entity carries none, and they are loaded by batch. */
function readWith(order: OrderRead): Required<Pick<OrderRead, 'revisionOf' | 'revisions' | 'referenceFileIds'>> | null {
  if (order instanceof Order || order.revisionOf === undefined || !order.revisions || !order.referenceFileIds)
    return null;
  return { revisionOf: order.revisionOf, revisions: order.revisions, referenceFileIds: order.referenceFileIds };
}
