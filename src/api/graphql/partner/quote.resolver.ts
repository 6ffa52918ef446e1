import {
  Arg,
  Args,
  Ctx,
  Field,
  FieldResolver,
  ID,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { ServiceType } from '../../../domain/catalog/catalog.enums';
import { createQuoteCommand, listQuotesCommand } from '../../../domain/quotes/quote.commands';
import { Quote, QuoteStatus, quoteStatus } from '../../../domain/quotes/quote.entity';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { ShippingAddressInput } from '../types/shipping-address.input';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';

@InputType()
class QuoteAddonInput {
  @Field() code!: string;
  @Field(() => Int, { nullable: true, description: 'Per-copy add-ons only (1-10).' }) quantity?: number;
}

@InputType()
class CreateQuoteInput {
  @Field() sourceLanguage!: string;
  @Field() targetLanguage!: string;
  @Field(() => ServiceType) serviceType!: ServiceType;
  @Field(() => [ID]) fileIds!: string[];
  @Field(() => Int, { nullable: true, description: 'Required when a file has no detectable count.' })
  unitCount?: number;
  @Field(() => [QuoteAddonInput], { nullable: true }) addons?: QuoteAddonInput[];
  @Field({ nullable: true }) reference?: string;
  @Field({
    nullable: true,
    description: 'Your purchase order number, at most 64 characters; required when your account says so.',
  })
  purchaseOrder?: string;
  @Field(() => ShippingAddressInput, {
    nullable: true,
    description: 'Only with the hard_copy add-on; it may also be given later, on the order (setShippingAddress).',
  })
  shippingAddress?: ShippingAddressInput;
  @Field({
    nullable: true,
    description:
      'Instructions to the translator, at most 2,000 characters: name spellings as on a passport, terms, format. Never printed on the certificate.',
  })
  instructions?: string;
}

@ObjectType()
class QuotePage extends PageOf(Quote) {}

/** Quotes on the partner door: the same service, and so the same rules and errors, as REST /quotes. */
@Authorized(Role.ACCOUNT)
@Resolver(() => Quote)
export class QuoteResolver {
  @Query(() => Quote, {
    nullable: true,
    description:
      'One of your quotes; null (with a NOT_FOUND error) for an unknown id, leaving the rest of the request answered.',
  })
  quote(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<Quote> {
    return services.quotes.get(ctx, id);
  }

  @Query(() => QuotePage, { description: 'Newest first.' })
  async quotes(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('status', () => QuoteStatus, { nullable: true }) status?: QuoteStatus,
  ): Promise<PageResult<Quote>> {
    return toPageResult(await services.quotes.list(ctx, graphqlCommand(listQuotesCommand, { status, ...pageArgs })));
  }

  @Authorized('quotes.create')
  @Mutation(() => Quote)
  createQuote(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('input', () => CreateQuoteInput) input: CreateQuoteInput,
  ): Promise<Quote> {
    return services.quotes.create(ctx, graphqlCommand(createQuoteCommand, input));
  }

  @Mutation(() => Boolean, { description: 'Discards a quote that was not converted.' })
  async deleteQuote(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    await services.quotes.delete(ctx, id);
    return true;
  }

  @FieldResolver(() => QuoteStatus, { description: 'PRICED, CONVERTED, or EXPIRED once expiresAt has passed.' })
  status(@Root() quote: Quote): QuoteStatus {
    return quoteStatus(quote);
  }
}
