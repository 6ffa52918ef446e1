import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal';
import { Arg, Args, Authorized, Ctx, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { Order, OrderStatus } from '../../../domain/orders/order.entity';
import { Role } from '../auth-checker';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, pageQuery, toPageResult, type PageResult } from '../types/page';

@ObjectType()
class StaffOrderPage extends PageOf(Order) {}

/** Staff: every account's orders and the manual moves of D10, each audited in the service. */
@Authorized(Role.STAFF)
@Resolver()
export class StaffOrderResolver {
  @Query(() => StaffOrderPage, { description: 'Soonest due first.' })
  async staffOrders(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('status', () => OrderStatus, { nullable: true }) status?: OrderStatus,
    @Arg('accountId', () => ID, { nullable: true }) accountId?: string,
  ): Promise<PageResult<Order>> {
    return toPageResult(await services.orders.staffList(ctx, { status, account_id: accountId, ...pageQuery(pageArgs) }));
  }

  @Mutation(() => Order)
  holdOrder(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string, @Arg('reason') reason: string): Promise<Order> {
    return services.orders.hold(ctx, id, { reason });
  }

  @Mutation(() => Order, { description: 'Back to the state the hold interrupted.' })
  releaseOrder(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<Order> {
    return services.orders.release(ctx, id);
  }

  @Mutation(() => Order, { description: 'Replaces the translation of a source file with a reviewed one (in review, or on hold).' })
  async attachReviewedTranslation(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('orderId', () => ID) orderId: string,
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>,
    @Arg('sourceFileId', () => ID, { nullable: true, description: 'Needed when the order has several source files.' }) sourceFileId?: string,
  ): Promise<Order> {
    const upload = await file;
    return services.certifiedReview.attachReviewedTranslation(ctx, orderId, { stream: upload.createReadStream(), filename: upload.filename, sourceFileId: sourceFileId ?? undefined });
  }

  @Mutation(() => Order, { description: 'Completes a certified order in review with the uploaded certificate (a PDF), or a generated one.' })
  async completeCertifiedOrder(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('orderId', () => ID) orderId: string,
    @Arg('certificate', () => GraphQLUpload, { nullable: true }) certificate?: Promise<FileUpload>,
  ): Promise<Order> {
    const upload = certificate ? await certificate : undefined;
    return services.certifiedReview.complete(ctx, orderId, upload ? { stream: upload.createReadStream() } : undefined);
  }

  @Mutation(() => Order, { description: 'Cancels an order not yet completed; a paid one is refunded.' })
  staffCancelOrder(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string, @Arg('reason') reason: string): Promise<Order> {
    return services.orders.staffCancel(ctx, id, { reason });
  }
}
