import { Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { ServiceType } from '../../../domain/catalog/catalog.enums';
import { Language } from '../../../domain/catalog/language';
import type { GraphQLContext } from '../context';
import { BookingPolicy, Pricing } from '../types/pricing.type';
import { BOOKING_POLICY } from '../../../domain/bookings/cancellation-policy';

@Resolver(() => Language)
export class CatalogResolver {
  @Query(() => [Language], { description: 'The language catalog, sorted by name. No key needed.' })
  languages(@Ctx() { services }: GraphQLContext): readonly Language[] {
    return services.catalog.listLanguages();
  }

  @FieldResolver(() => [ServiceType], {
    description:
      'The services it can be ordered in: STANDARD only where the translation engine reads and writes it (D29).',
  })
  services(@Root() language: Language, @Ctx() { services }: GraphQLContext): ServiceType[] {
    return services.standardOffer.servicesOf(language.code);
  }

  @Query(() => Pricing, { description: 'Translation rates, add-ons and interpretation rates. No key needed.' })
  pricing(@Ctx() { ctx, services }: GraphQLContext): Promise<Pricing> {
    return services.catalog.pricing(ctx.em);
  }
}

/** The bookings' cancellation policy beside the rates (D32), wherever a `Pricing` is answered. */
@Resolver(() => Pricing)
export class PricingPolicyResolver {
  @FieldResolver(() => BookingPolicy, { description: 'What cancelling an interpretation booking costs.' })
  bookingPolicy(): typeof BOOKING_POLICY {
    return BOOKING_POLICY;
  }
}
