import { Arg, Args, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Booking, BookingStatus } from '../../../domain/bookings/booking.entity';
import { Role } from '../auth-checker';
import type { GraphQLContext } from '../context';
import { InterpretationBookingPage } from '../partner/booking.resolver';
import { PageArgs, pageQuery, toPageResult, type PageResult } from '../types/page';

/** Staff: availability, completion, holds and cancellations of D12, each audited in the service. */
@Authorized(Role.STAFF)
@Resolver()
export class StaffBookingResolver {
  @Query(() => InterpretationBookingPage, { description: 'Every account\'s bookings, soonest first.' })
  async staffInterpretationBookings(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('status', () => BookingStatus, { nullable: true }) status?: BookingStatus,
  ): Promise<PageResult<Booking>> {
    return toPageResult(await services.bookings.staffList(ctx, { status, ...pageQuery(pageArgs) }));
  }

  @Mutation(() => Booking, { description: 'Creates the checkout and e-mails its link to the account.' })
  confirmInterpretationAvailability(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string, @Arg('interpreterName') interpreterName: string): Promise<Booking> {
    return services.bookings.confirmAvailability(ctx, id, { interpreter_name: interpreterName });
  }

  @Mutation(() => Booking)
  completeInterpretationBooking(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<Booking> {
    return services.bookings.complete(ctx, id);
  }

  @Mutation(() => Booking, { description: 'E-mails the account.' })
  holdInterpretationBooking(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string, @Arg('reason') reason: string): Promise<Booking> {
    return services.bookings.hold(ctx, id, { reason });
  }

  @Mutation(() => Booking)
  releaseInterpretationBooking(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<Booking> {
    return services.bookings.release(ctx, id);
  }

  @Mutation(() => Booking, { description: 'Refunds a paid booking.' })
  staffCancelInterpretationBooking(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string, @Arg('reason') reason: string): Promise<Booking> {
    return services.bookings.staffCancel(ctx, id, { reason });
  }
}
