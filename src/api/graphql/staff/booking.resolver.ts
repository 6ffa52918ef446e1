import {
  Arg,
  Args,
  Ctx,
  Field,
  FieldResolver,
  Float,
  ID,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { CancellationFee } from '../../../domain/bookings/cancellation-policy';
import { Account } from '../../../domain/identity/account.entity';
import { BookingNote } from '../../../domain/bookings/booking-note.entity';
import type { StaffBookingRead } from '../../../domain/bookings/booking-read';
import { Booking, BookingStatus } from '../../../domain/bookings/booking.entity';
import {
  assignInterpreterCommand,
  completeBookingCommand,
  confirmAvailabilityCommand,
  confirmByNameCommand,
  replaceInterpreterCommand,
  rescheduleBookingCommand,
  staffBookingRefundCommand,
  staffBookingsCommand,
  staffCancelBookingCommand,
} from '../../../domain/bookings/booking.commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { addNoteCommand, staffReasonCommand } from '../../../domain/desk/desk.commands';
import { graphqlCommand } from '../../commands';
import { InterpretationBookingPage } from '../partner/booking.resolver';
import { writtenDateTime } from '../scalars/date-time.scalar';
import { PageArgs, toPageResult, type PageResult } from '../types/page';
import { actedOn, BookingIdArgs, type ActedOn } from './acted-on';

/** Staff: the booking desk (D12, D28): look-ups, availability, completion, holds, cancels, notes and reschedules, each audited in the service. */
@Authorized(Role.STAFF)
@Resolver()
export class StaffBookingResolver {
  @Query(() => InterpretationBookingPage, {
    description:
      "Every account's bookings, soonest first. `from` (inclusive) and `to` (exclusive) bound the start time; `search` matches the number, the reference or the account name.",
  })
  async staffInterpretationBookings(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('status', () => BookingStatus, { nullable: true }) status?: BookingStatus,
    @Arg('accountId', () => ID, { nullable: true }) accountId?: string,
    @Arg('from', () => Date, { nullable: true }) from?: Date,
    @Arg('to', () => Date, { nullable: true }) to?: Date,
    @Arg('search', () => String, { nullable: true }) search?: string,
  ): Promise<PageResult<StaffBookingRead>> {
    const command = graphqlCommand(staffBookingsCommand, {
      status,
      accountId,
      from: from?.toISOString(),
      to: to?.toISOString(),
      search,
      ...pageArgs,
    });
    return toPageResult(await services.bookingDesk.list(ctx, command));
  }

  @Query(() => Booking, {
    nullable: true,
    description: 'One booking by id or by number, with its account and notes; null (and NOT_FOUND) when there is none.',
  })
  staffInterpretationBooking(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID, { nullable: true }) id?: string,
    @Arg('number', () => String, { nullable: true }) number?: string,
  ): Promise<Booking> {
    return services.bookingDesk.get(ctx, { id, number });
  }

  @Mutation(() => Booking, {
    description:
      'Confirms the interpreter, creates the checkout and e-mails its link to the account. The interpreter must be active, speak the languages, work in the mode, hold COURT_CERTIFIED for a court or deposition and ASL_CERTIFIED for ASL, and have no confirmed or awaiting-payment booking within 30 minutes: otherwise errors.interpreterId names the rule.',
  })
  confirmInterpretationAvailability(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('interpreterId', () => ID, { nullable: true, description: 'An interpreter on record (`interpreters`).' })
    interpreterId?: string | null,
    @Arg('interpreterName', () => String, {
      nullable: true,
      deprecationReason: 'Use `interpreterId`: a name alone is checked against no rule. It goes in the next release.',
    })
    interpreterName?: string | null,
  ): Promise<Booking> {
    // The name alone only when no interpreter on record is given: the deprecated call answers as it always did.
    const command =
      interpreterId == null && interpreterName != null
        ? graphqlCommand(confirmByNameCommand, { interpreterName })
        : graphqlCommand(confirmAvailabilityCommand, { interpreterId });
    return services.bookings.confirmAvailability(ctx, id, command);
  }

  @Mutation(() => Booking, {
    description:
      "Once the start has passed. With `actualHours` (more than 0, at most 24), the time past `billableHours`, rounded up to the half hour, is charged at the booking's hourly rate, shown as `payment.overtime`: a checkout e-mailed to the account, or, for an account on billing terms (NET_15, NET_30), placed on account with the completion (no checkout, `approvalUrl` null) and billed as a line of the account's next invoice.",
  })
  completeInterpretationBooking(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('actualHours', () => Float, { nullable: true, description: 'The hours the session really took.' })
    actualHours?: number | null,
  ): Promise<Booking> {
    return services.bookings.complete(
      ctx,
      id,
      graphqlCommand(completeBookingCommand, { actualHours: actualHours ?? undefined }),
    );
  }

  @Mutation(() => Booking, { description: 'E-mails the account.' })
  holdInterpretationBooking(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('reason') reason: string,
  ): Promise<Booking> {
    return services.bookings.hold(ctx, id, graphqlCommand(staffReasonCommand, { reason }));
  }

  @Mutation(() => Booking, {
    description:
      'Back to the state it was held from. Its interpreter on record is checked again as a confirmation checks them (active, languages, mode, qualification, no overlap): otherwise `BAD_USER_INPUT` under `interpreterId`, the message naming the rule, and the booking stays on hold.',
  })
  releaseInterpretationBooking(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
  ): Promise<Booking> {
    return services.bookings.release(ctx, id);
  }

  @Mutation(() => Booking, {
    description:
      'Refunds a paid booking as the cancellation policy (`pricing.bookingPolicy`) says: all of it 48 hours or more before the start, half from 24 hours, nothing under 24 hours, unless `waiveFee`. The account is e-mailed the refund and the fee; the audit names both.',
  })
  staffCancelInterpretationBooking(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('reason') reason: string,
    @Arg('waiveFee', () => Boolean, { nullable: true, description: 'Refund all of it whatever the time left.' })
    waiveFee?: boolean | null,
  ): Promise<Booking> {
    const command = graphqlCommand(staffCancelBookingCommand, { reason, waiveFee: waiveFee ?? undefined });
    return services.bookings.staffCancel(ctx, id, command);
  }

  @Mutation(() => Booking, {
    description:
      'Refunds part or all of what the booking captured, in any state after payment; the booking keeps its state and the account is e-mailed the amount and the reason. More than is left to refund: errors.amountCents.',
  })
  refundInterpretationBooking(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('amountCents', () => Int) amountCents: number,
    @Arg('reason') reason: string,
    @Arg('overtime', () => Boolean, {
      nullable: true,
      description:
        "True to refund from the overtime's payment (payment.overtime) instead of the booking's own; nothing paid there: errors.payment.",
    })
    overtime?: boolean | null,
  ): Promise<Booking> {
    const command = graphqlCommand(staffBookingRefundCommand, { amountCents, reason, overtime: overtime ?? undefined });
    return services.bookings.refund(ctx, id, command);
  }

  @Mutation(() => BookingNote, { description: 'An internal note on the booking; never shown to the client.' })
  addBookingNote(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('text') text: string,
    @Args(() => BookingIdArgs) ref: ActedOn<'bookingId'>,
  ): Promise<BookingNote> {
    return services.bookingDesk.addNote(ctx, actedOn(ref, 'bookingId'), graphqlCommand(addNoteCommand, { text }));
  }

  @Mutation(() => Booking, { description: 'The interpreter who will attend, by name; null clears it. Audited.' })
  assignInterpreter(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => BookingIdArgs) ref: ActedOn<'bookingId'>,
    @Arg('interpreterName', () => String, { nullable: true }) interpreterName?: string | null,
  ): Promise<Booking> {
    const command = graphqlCommand(assignInterpreterCommand, { interpreterName });
    return services.bookingDesk.assignInterpreter(ctx, actedOn(ref, 'bookingId'), command);
  }

  @Mutation(() => Booking, {
    description:
      "Another interpreter on record for an open booking, checked as a confirmation checks them (active, languages, mode, qualification, and no overlap once the booking holds the interpreter's time): the way to release a hold whose interpreter was deactivated. Refused: `BAD_USER_INPUT` under `interpreterId`, the message naming the rule. Audited.",
  })
  replaceInterpreter(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('interpreterId', () => ID) interpreterId: string,
  ): Promise<Booking> {
    return services.bookings.replaceInterpreter(ctx, id, graphqlCommand(replaceInterpreterCommand, { interpreterId }));
  }

  @Mutation(() => Booking, {
    description:
      'A new start time in the future, within 5 years; the duration (and price) changes only before payment is asked for. The account is e-mailed. Audited.',
  })
  rescheduleInterpretationBooking(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('scheduledAt', () => Date) scheduledAt: Date,
    @Arg('durationHours', () => Float, { nullable: true }) durationHours?: number,
  ): Promise<Booking> {
    // The time as written, offset and all: the booking shows it back in that offset (D29).
    const command = graphqlCommand(rescheduleBookingCommand, {
      scheduledAt: writtenDateTime(scheduledAt),
      durationHours,
    });
    return services.bookingDesk.reschedule(ctx, id, command);
  }
}

/** What staff see of a booking beyond the client's view (D28); each field is refused to account keys. */
@Resolver(() => Booking)
export class BookingDeskFieldsResolver {
  @Authorized(Role.STAFF)
  @FieldResolver(() => Account, { nullable: true, description: 'Staff only: whose booking it is.' })
  account(@Root() booking: Pick<Booking, 'account'>, @Ctx() { ctx, services }: GraphQLContext): Promise<Account> {
    return services.bookingDesk.account(ctx, booking);
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => [BookingNote], { nullable: true, description: 'Staff only: internal notes, oldest first.' })
  notes(@Root() booking: Pick<Booking, 'id'>, @Ctx() { loaders }: GraphQLContext): Promise<BookingNote[]> {
    return loaders.bookingNotes().load(booking.id);
  }

  @Authorized(Role.STAFF)
  @FieldResolver(() => CancellationFeeNow, {
    nullable: true,
    description:
      'Staff only: what `staffCancelInterpretationBooking` would keep and refund if sent now, fee not waived; null while the booking cancels free or is finished.',
  })
  cancellationFeeNow(
    @Root() booking: StaffBookingRead | Booking,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<CancellationFee | null> {
    return services.bookings.cancellationFeeNow(ctx, booking);
  }
}

@ObjectType({ description: 'The cancellation policy applied to a paid booking at this moment.' })
class CancellationFeeNow implements Pick<
  CancellationFee,
  'feeCents' | 'refundCents' | 'hoursBeforeStart' | 'refundPercent'
> {
  @Field(() => Int, { description: 'What the cancel keeps of what is left of the payment.' }) feeCents!: number;
  @Field(() => Int, { description: 'What it gives back.' }) refundCents!: number;
  @Field(() => Int) refundPercent!: number;
  @Field(() => Float, { description: 'Hours left before the start, at least 0.' }) hoursBeforeStart!: number;
}
