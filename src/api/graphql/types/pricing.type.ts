import { Field, Int, ObjectType } from 'type-graphql';
import { BookingStatus } from '../../../domain/bookings/booking.entity';
import { Addon, InterpretationRate, ServiceRate } from '../../../domain/catalog/rates.entity';

@ObjectType()
export class Pricing {
  @Field(() => [ServiceRate]) services!: ServiceRate[];
  @Field(() => [Addon]) addons!: Addon[];
  @Field(() => [InterpretationRate]) interpretation!: InterpretationRate[];
}

@ObjectType()
export class CancellationTier {
  @Field(() => Int, { description: 'Notice the tier needs, in hours before the start (UTC).' })
  hoursBeforeStartAtLeast!: number;
  @Field(() => Int, { description: 'Share of what was paid that is refunded; the rest is the fee.' })
  refundPercent!: number;
}

@ObjectType({ description: 'The cancellation policy of interpretation bookings, longest notice first.' })
export class BookingPolicy {
  @Field(() => [BookingStatus]) freeCancellationStatuses!: BookingStatus[];
  @Field(() => [CancellationTier]) tiers!: CancellationTier[];
  @Field(() => Boolean) waivableByStaff!: boolean;
}
