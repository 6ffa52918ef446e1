import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal';
import { Arg, Args, Ctx, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { OrderNote } from '../../../domain/orders/order-note.entity';
import type { StaffOrderRead } from '../../../domain/orders/order-read';
import { Order, OrderStatus } from '../../../domain/orders/order.entity';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { addNoteCommand, staffReasonCommand } from '../../../domain/desk/desk.commands';
import { recordNotarizationCommand } from '../../../domain/certification/certification.commands';
import { assignOrderCommand, staffOrdersCommand } from '../../../domain/orders/order.commands';
import { StaffOrderQueue } from '../../../domain/orders/order-read';
import { markShippedCommand } from '../../../domain/orders/shipping.commands';
import { staffRefundCommand } from '../../../domain/payments/payment.commands';
import { graphqlCommand } from '../../commands';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';
import { actedOn, FileIdArgs, OrderIdArgs, type ActedOn } from './acted-on';

@ObjectType()
class StaffOrderPage extends PageOf(Order) {}

/** Staff: every account's orders and the manual moves of D10, each audited in the service. */
@Authorized(Role.STAFF)
@Resolver()
export class StaffOrderResolver {
  @Query(() => StaffOrderPage, {
    description:
      'Soonest due first. `search` matches the number, the reference or the account name; `overdue` means due and not finished; `queue: NEEDS_TRANSLATION` the processing certified orders whose scans wait for a translator (D30).',
  })
  async staffOrders(
    @Ctx() { ctx, services, loaders }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('status', () => OrderStatus, { nullable: true }) status?: OrderStatus,
    @Arg('queue', () => StaffOrderQueue, { nullable: true }) queue?: StaffOrderQueue,
    @Arg('accountId', () => ID, { nullable: true }) accountId?: string,
    @Arg('assigneeId', () => ID, { nullable: true }) assigneeId?: string,
    @Arg('overdue', () => Boolean, { nullable: true }) overdue?: boolean,
    @Arg('search', () => String, { nullable: true }) search?: string,
  ): Promise<PageResult<StaffOrderRead>> {
    const command = graphqlCommand(staffOrdersCommand, {
      status,
      queue,
      accountId,
      assigneeId,
      overdue: overdue ?? false,
      search,
      ...pageArgs,
    });
    // The page comes with its files, as a partner's does: `files` is answered from it.
    const page = await services.orders.staffList(ctx, command);
    for (const { order, files } of page.items) loaders.orderFiles.prime(order.id, files);
    return toPageResult({ ...page, items: page.items.map(({ order }) => order) });
  }

  @Query(() => Order, {
    nullable: true,
    description:
      'One order by id or by number, with everything staff see (account, every file with a link, notes, assignee, reviews, notarization, certificate); null (and NOT_FOUND) when there is none.',
  })
  staffOrder(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID, { nullable: true }) id?: string,
    @Arg('number', () => String, { nullable: true }) number?: string,
  ): Promise<Order> {
    return services.orderDesk.get(ctx, { id, number });
  }

  @Mutation(() => Order)
  holdOrder(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('reason') reason: string,
  ): Promise<Order> {
    return services.orders.hold(ctx, id, graphqlCommand(staffReasonCommand, { reason }));
  }

  @Mutation(() => Order, {
    description:
      'The hard copies of a completed order with an address are with a carrier; the client is e-mailed the tracking number. Called again with other details it corrects them (audited, the client e-mailed again).',
  })
  markShipped(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => OrderIdArgs) ref: ActedOn<'orderId'>,
    @Arg('carrier') carrier: string,
    @Arg('trackingNumber') trackingNumber: string,
  ): Promise<Order> {
    return services.shipping.markShipped(
      ctx,
      actedOn(ref, 'orderId'),
      graphqlCommand(markShippedCommand, { carrier, trackingNumber }),
    );
  }

  @Mutation(() => Order, { description: 'Back to the state the hold interrupted.' })
  releaseOrder(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<Order> {
    return services.orders.release(ctx, id);
  }

  @Mutation(() => Order, {
    description:
      'Replaces the translation of a source file with a reviewed one (in review, or on hold); this reviews it.',
  })
  async attachReviewedTranslation(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => OrderIdArgs) ref: ActedOn<'orderId'>,
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>,
    @Arg('sourceFileId', () => ID, { nullable: true, description: 'Needed when the order has several source files.' })
    sourceFileId?: string,
  ): Promise<Order> {
    const upload = await file;
    return services.certifiedReview.attachReviewedTranslation(ctx, actedOn(ref, 'orderId'), {
      stream: upload.createReadStream(),
      sourceFileId: sourceFileId ?? undefined,
    });
  }

  @Mutation(() => Order, { description: 'The machine translation is right as it is: reviewed by the caller.' })
  approveTranslation(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => FileIdArgs) ref: ActedOn<'fileId'>,
  ): Promise<Order> {
    return services.certifiedReview.approveTranslation(ctx, actedOn(ref, 'fileId'));
  }

  @Mutation(() => Order, {
    description:
      'Completes a certified order in review: refused (errors.files, errors.notarization) until every translation is reviewed and an ordered notarization is recorded. Uses the uploaded certificate (a PDF), or generates one.',
  })
  async completeCertifiedOrder(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => OrderIdArgs) ref: ActedOn<'orderId'>,
    @Arg('certificate', () => GraphQLUpload, { nullable: true }) certificate?: Promise<FileUpload>,
  ): Promise<Order> {
    const upload = certificate ? await certificate : undefined;
    return services.certifiedReview.complete(
      ctx,
      actedOn(ref, 'orderId'),
      upload ? { stream: upload.createReadStream() } : undefined,
    );
  }

  @Mutation(() => Order, {
    description: 'Records (or corrects) the notarization of an order with the notarization add-on, before completion.',
  })
  async recordNotarization(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => OrderIdArgs) ref: ActedOn<'orderId'>,
    @Arg('notaryName') notaryName: string,
    @Arg('commissionNumber') commissionNumber: string,
    @Arg('jurisdiction') jurisdiction: string,
    @Arg('commissionExpiresOn', { description: 'YYYY-MM-DD.' }) commissionExpiresOn: string,
    // Nullable so that an empty one is refused by the command beside the others' errors, not by GraphQL alone.
    @Arg('notarizedAt', () => Date, { nullable: true }) notarizedAt: Date | null | undefined,
    @Arg('scan', () => GraphQLUpload, {
      nullable: true,
      description:
        'The notarized certificate, scanned (a PDF, JPEG or PNG): kept as a certificate file of the order, in place of any scan recorded before.',
    })
    scan?: Promise<FileUpload>,
  ): Promise<Order> {
    // Read before the scan is awaited: a refused command never starts reading the upload.
    const command = graphqlCommand(recordNotarizationCommand, {
      notaryName,
      commissionNumber,
      jurisdiction,
      commissionExpiresOn,
      notarizedAt: notarizedAt?.toISOString(),
    });
    const upload = scan ? await scan : undefined;
    return services.certifiedReview.recordNotarization(
      ctx,
      actedOn(ref, 'orderId'),
      command,
      upload ? { stream: upload.createReadStream() } : undefined,
    );
  }

  @Mutation(() => Order, { description: 'Assigns the order to a reviewer; null unassigns it.' })
  assignOrder(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => OrderIdArgs) ref: ActedOn<'orderId'>,
    @Arg('staffUserId', () => ID, { nullable: true }) staffUserId?: string | null,
  ): Promise<Order> {
    return services.orderDesk.assign(ctx, actedOn(ref, 'orderId'), graphqlCommand(assignOrderCommand, { staffUserId }));
  }

  @Mutation(() => OrderNote, { description: 'An internal note on the order; never shown to the client.' })
  addOrderNote(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => OrderIdArgs) ref: ActedOn<'orderId'>,
    @Arg('text') text: string,
  ): Promise<OrderNote> {
    return services.orderDesk.addNote(ctx, actedOn(ref, 'orderId'), graphqlCommand(addNoteCommand, { text }));
  }

  @Mutation(() => Order, {
    description:
      'Refunds part or all of what the order captured, in any state after payment; the order keeps its state and the account is e-mailed the amount and the reason. More than is left to refund: errors.amountCents.',
  })
  refundOrder(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('amountCents', () => Int) amountCents: number,
    @Arg('reason') reason: string,
  ): Promise<Order> {
    return services.orders.refund(ctx, id, graphqlCommand(staffRefundCommand, { amountCents, reason }));
  }

  @Mutation(() => Order, { description: 'Cancels an order not yet completed; a paid one is refunded.' })
  staffCancelOrder(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('reason') reason: string,
  ): Promise<Order> {
    return services.orders.staffCancel(ctx, id, graphqlCommand(staffReasonCommand, { reason }));
  }
}
