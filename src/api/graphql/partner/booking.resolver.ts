import {
  Arg,
  Args,
  Ctx,
  Field,
  FieldResolver,
  Float,
  ID,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { BookingRead } from '../../../domain/bookings/booking-read';
import { createBookingCommand, listBookingsCommand } from '../../../domain/bookings/booking.commands';
import { Booking, BookingSetting, BookingStatus, hoursOf } from '../../../domain/bookings/booking.entity';
import { InterpretationMode } from '../../../domain/catalog/catalog.enums';
import { overtimeView, type OvertimeView } from '../../../domain/bookings/booking-overtime';
import { cancellationDeadlines, type CancellationDeadlines } from '../../../domain/bookings/cancellation-policy';
import { bookingTime } from '../../../domain/shared/booking-time';
import { InterpreterQualification, type AssignedInterpreter } from '../../../domain/bookings/interpreter.entity';
import { paymentOrPending, type PaymentRead } from '../../../domain/payments/payment-read';
import { Payment } from '../../../domain/payments/payment.entity';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import { writtenDateTime } from '../scalars/date-time.scalar';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';

@InputType()
class CreateInterpretationBookingInput {
  @Field() sourceLanguage!: string;
  @Field() targetLanguage!: string;
  @Field(() => InterpretationMode) mode!: InterpretationMode;
  @Field(() => BookingSetting, { nullable: true }) setting?: BookingSetting;
  @Field(() => Date, {
    description: 'When the interpreter is needed: in the future and within 5 years, with an explicit offset.',
  })
  scheduledAt!: Date;
  @Field(() => Float) durationHours!: number;
  @Field({ nullable: true }) location?: string;
  @Field({ nullable: true }) videoPlatformNotes?: string;
  @Field({ nullable: true }) reference?: string;
  @Field({
    nullable: true,
    description:
      'Where the payer is sent back after paying, with payment=<outcome> and booking_id; absolute http(s), at most 2048 characters.',
  })
  redirectUrl?: string;
}

@ObjectType()
export class InterpretationBookingPage extends PageOf(Booking) {}

/** Bookings on the partner door, over the same service as REST /interpretation-bookings. */
@Authorized(Role.ACCOUNT)
@Resolver()
export class BookingResolver {
  @Query(() => Booking, {
    nullable: true,
    description:
      'One of your bookings; null (with a NOT_FOUND error) for an unknown id, leaving the rest of the request answered.',
  })
  async interpretationBooking(
    @Ctx() { ctx, services, polledAnswer }: GraphQLContext,
    @Arg('id', () => ID) id: string,
  ): Promise<BookingRead> {
    return (await services.bookings.get(ctx, id, polledAnswer('interpretationBooking', id))).booking;
  }

  @Query(() => InterpretationBookingPage, {
    description: 'Newest first; with `updatedSince`, the bookings changed at or after it, oldest change first.',
  })
  async interpretationBookings(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('status', () => BookingStatus, { nullable: true }) status?: BookingStatus,
    @Arg('updatedSince', () => Date, {
      nullable: true,
      description: 'Poll for changes: pass the updatedAt of the last change you saw.',
    })
    updatedSince?: Date,
  ): Promise<PageResult<BookingRead>> {
    const command = graphqlCommand(listBookingsCommand, {
      status,
      updatedSince: updatedSince?.toISOString(),
      ...pageArgs,
    });
    return toPageResult(await services.bookings.list(ctx, command));
  }

  @Authorized('bookings.create')
  @Mutation(() => Booking)
  createInterpretationBooking(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('input', () => CreateInterpretationBookingInput) input: CreateInterpretationBookingInput,
  ): Promise<Booking> {
    // The time as written, offset and all: the booking shows it back in that offset (D29).
    const command = graphqlCommand(createBookingCommand, { ...input, scheduledAt: writtenDateTime(input.scheduledAt) });
    return services.bookings.create(ctx, command);
  }

  @Mutation(() => Booking)
  cancelInterpretationBooking(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
  ): Promise<Booking> {
    return services.bookings.cancel(ctx, id);
  }
}

/**
 * Fields of Booking for every caller, answered from the polled read as from an entity. Hours are resolved here rather
 * than by getters on the entity: type-graphql would build a whole entity from the read for every getter it calls.
 */
@Resolver(() => Booking)
export class BookingFieldsResolver {
  @FieldResolver(() => Float)
  durationHours(@Root() booking: BookingRead): number {
    return hoursOf(booking.durationHundredths);
  }

  @FieldResolver(() => Float, { description: 'Requested hours raised to the 2-hour minimum.' })
  billableHours(@Root() booking: BookingRead): number {
    return hoursOf(booking.billableHundredths);
  }

  /** The payment object for every caller: provider and nulls until staff create the checkout; its overtime (D32). */
  @FieldResolver(() => Payment)
  payment(@Root() booking: BookingRead, @Ctx() { services }: GraphQLContext): PaymentRead {
    const payment = paymentOrPending(booking.payment, services.payments.provider.name);
    const overtime = overtimeView(booking);
    if (overtime) overtimes.set(payment, overtime);
    return payment;
  }

  @FieldResolver(() => AssignedInterpreterType, {
    nullable: true,
    description: 'The interpreter on record confirmed for the booking: name and qualifications.',
  })
  interpreter(@Root() booking: BookingRead): AssignedInterpreter | null {
    return (
      booking.interpreter && { name: booking.interpreter.name, qualifications: booking.interpreter.qualifications }
    );
  }

  @FieldResolver(() => String, {
    description:
      'The start for people to read, as the client wrote it with UTC beside (`2026-12-01 09:30 UTC-05:00 (2026-12-01 14:30 UTC)`), as e-mails, the portal and the console show it; `scheduledAt` is the instant.',
  })
  scheduledAtText(@Root() booking: BookingRead): string {
    return bookingTime(booking);
  }

  @FieldResolver(() => CancellationDeadlinesType, {
    nullable: true,
    description:
      'When a cancel of the paid booking stops refunding all, then half, of it (`pricing.bookingPolicy`), counted in UTC; null while it cancels free (not paid yet) or is finished.',
  })
  cancellationDeadlines(@Root() booking: BookingRead): CancellationDeadlines | null {
    return cancellationDeadlines(booking);
  }
}

@ObjectType('CancellationDeadlines', { description: 'The moments the cancellation policy changes at for a booking.' })
class CancellationDeadlinesType implements CancellationDeadlines {
  @Field(() => Date, { description: 'Until this moment (included) a cancel refunds all of it.' })
  fullRefundUntil!: Date;
  @Field(() => Date, { description: 'Until this moment (included) a cancel refunds half; nothing after it.' })
  halfRefundUntil!: Date;
  @Field({
    description:
      "The policy as the booking's e-mails write it, each deadline in the offset `scheduledAt` was written with and in UTC beside it.",
  })
  terms!: string;
}

/**
 * A booking's payment answers its overtime (D32); an order's has none. The payment is handed on as it is (staff fields
 * read the entity), so its overtime waits here, beside it, for as long as the payment object lives.
 */
const overtimes = new WeakMap<PaymentRead, OvertimeView>();

@ObjectType('BookingOvertime', {
  description: 'Hours past those billed, rounded up to the half hour, and their checkout.',
})
class BookingOvertimeType implements OvertimeView {
  @Field(() => Float) hours!: number;
  @Field(() => Int) amountCents!: number;
  @Field(() => String, { nullable: true }) approvalUrl!: string | null;
  @Field(() => Date, { nullable: true }) paidAt!: Date | null;
  @Field(() => String, {
    nullable: true,
    description: "The overtime's receipt when paid by card, as `Payment.receiptUrl`; null on account (D31).",
  })
  receiptUrl!: string | null;
  @Field(() => Int, {
    description: 'What the operator refunded of the overtime, as Payment.refundedCents; 0 until then.',
  })
  refundedCents!: number;
  @Field(() => String, {
    nullable: true,
    description: "Who takes the overtime's payment, as Payment.provider (`account` when it is billed on an invoice).",
  })
  provider!: string | null;
  payment!: OvertimeView['payment'];
}

@ObjectType('AssignedInterpreter', { description: 'What a client sees of the interpreter confirmed for its booking.' })
class AssignedInterpreterType implements AssignedInterpreter {
  @Field() name!: string;
  @Field(() => [InterpreterQualification]) qualifications!: InterpreterQualification[];
}

@Resolver(() => Payment)
export class PaymentOvertimeResolver {
  @FieldResolver(() => BookingOvertimeType, {
    nullable: true,
    description:
      "A booking's overtime (actual hours past the billed ones), charged by its own checkout, or for an account on terms placed on account and billed on its next invoice (approvalUrl null); null for orders.",
  })
  overtime(@Root() payment: PaymentRead, @Ctx() { services }: GraphQLContext): BookingOvertimeType | null {
    const overtime = overtimes.get(payment);
    return overtime
      ? {
          ...overtime,
          receiptUrl: overtime.payment && services.receipts.receiptUrl(overtime.payment),
          provider: overtime.payment?.provider ?? null,
        }
      : null;
  }
}
