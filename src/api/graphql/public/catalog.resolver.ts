import { Ctx, Query, Resolver } from 'type-graphql';
import { Language } from '../../../domain/catalog/language';
import type { GraphQLContext } from '../context';
import { Pricing } from '../types/pricing.type';

@Resolver()
export class CatalogResolver {
  @Query(() => [Language], { description: 'The language catalog, sorted by name. No key needed.' })
  languages(@Ctx() { services }: GraphQLContext): readonly Language[] {
    return services.catalog.listLanguages();
  }

  @Query(() => Pricing, { description: 'Translation rates, add-ons and interpretation rates. No key needed.' })
  pricing(@Ctx() { ctx, services }: GraphQLContext): Promise<Pricing> {
    return services.catalog.pricing(ctx.em);
  }
}
