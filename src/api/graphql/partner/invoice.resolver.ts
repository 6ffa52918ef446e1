import { Arg, Args, Ctx, FieldResolver, ID, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { listInvoicesCommand } from '../../../domain/billing/invoice.commands';
import { Invoice, InvoiceStatus } from '../../../domain/billing/invoice.entity';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';

@ObjectType()
class InvoicePage extends PageOf(Invoice) {}

/** An account's invoices on terms (D31), over the same service as REST /invoices. */
@Authorized(Role.ACCOUNT)
@Resolver()
export class InvoiceResolver {
  @Authorized('invoices.read')
  @Query(() => InvoicePage, { description: 'Your invoices (accounts on terms), newest first.' })
  async invoices(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('status', () => InvoiceStatus, { nullable: true }) status?: InvoiceStatus,
  ): Promise<PageResult<Invoice>> {
    return toPageResult(
      await services.invoices.list(ctx, graphqlCommand(listInvoicesCommand, { status, ...pageArgs })),
    );
  }

  @Authorized('invoices.read')
  @Query(() => Invoice, { nullable: true, description: 'One of your invoices; null (NOT_FOUND) for an unknown id.' })
  invoice(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<Invoice> {
    return services.invoices.get(ctx, id);
  }
}

/** Fields of Invoice for every caller. */
@Resolver(() => Invoice)
export class InvoiceFieldsResolver {
  @FieldResolver(() => String, { description: 'The invoice as a PDF: a signed link, valid for 5 minutes.' })
  downloadUrl(@Root() invoice: Invoice, @Ctx() { services }: GraphQLContext): string {
    return services.invoiceLinks.url(invoice.id);
  }
}
