import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import { InterpretationMode, ServiceType } from '../../../domain/catalog/catalog.enums';
import { updateRateCommand } from '../../../domain/catalog/rate.commands';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { Pricing } from '../types/pricing.type';

@Resolver()
export class RateResolver {
  @Authorized(Role.STAFF)
  @Mutation(() => Pricing, {
    description:
      'Admins only. Sets the price of one rate card line, named by exactly one of serviceType, addonCode or ' +
      'interpretationMode, and answers the whole rate card. Existing quotes and bookings keep their prices.',
  })
  updateRate(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('priceCents', () => Int, { description: 'Per page, word or hour for rates; per copy or flat for add-ons.' })
    priceCents: number,
    @Arg('serviceType', () => ServiceType, { nullable: true }) serviceType?: ServiceType,
    @Arg('addonCode', () => String, { nullable: true }) addonCode?: string,
    @Arg('interpretationMode', () => InterpretationMode, { nullable: true }) interpretationMode?: InterpretationMode,
  ): Promise<Pricing> {
    return services.catalog.updateRate(
      ctx,
      graphqlCommand(updateRateCommand, { serviceType, addonCode, interpretationMode, priceCents }),
    );
  }
}
