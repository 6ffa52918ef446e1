import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { Account } from '../../../domain/identity/account.entity';
import {
  recordInvoicePaymentCommand,
  staffInvoicesCommand,
  voidInvoiceCommand,
} from '../../../domain/billing/invoice.commands';
import { Invoice, InvoiceStatus } from '../../../domain/billing/invoice.entity';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';

@ObjectType()
class StaffInvoicePage extends PageOf(Invoice) {}

/** Staff: invoices of accounts on terms (D31). Every mutation writes an audit row in the service. */
@Authorized(Role.STAFF)
@Resolver()
export class StaffInvoiceResolver {
  @Query(() => StaffInvoicePage, { description: 'Invoices, newest first: of one account, of one status, or overdue.' })
  async staffInvoices(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('accountId', () => ID, { nullable: true }) accountId?: string,
    @Arg('status', () => InvoiceStatus, { nullable: true }) status?: InvoiceStatus,
    @Arg('overdue', () => Boolean, { nullable: true, description: 'Only open invoices past their due date.' })
    overdue?: boolean,
  ): Promise<PageResult<Invoice>> {
    return toPageResult(
      await services.invoices.staffList(
        ctx,
        graphqlCommand(staffInvoicesCommand, { accountId, status, overdue, ...pageArgs }),
      ),
    );
  }

  @Mutation(() => Invoice, {
    nullable: true,
    description:
      "Admins: invoices the account's work on account not invoiced yet, now; null when there is nothing new (a second close adds nothing).",
  })
  closeInvoices(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('accountId', () => ID) accountId: string,
  ): Promise<Invoice | null> {
    return services.invoices.closeOnDemand(ctx, accountId);
  }

  @Mutation(() => Invoice, {
    description:
      'Admins: money received against an open invoice; paid when payments reach the total. More than is due is refused.',
  })
  recordInvoicePayment(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('amountCents', () => Int) amountCents: number,
    @Arg('method', { description: 'How it was paid: bank transfer, cheque, ...' }) method: string,
    @Arg('reference', () => String, { nullable: true }) reference?: string,
  ): Promise<Invoice> {
    return services.invoices.recordPayment(
      ctx,
      id,
      graphqlCommand(recordInvoicePaymentCommand, { amountCents, method, reference }),
    );
  }

  @Mutation(() => Invoice, {
    description:
      'Admins: withdraws an open invoice issued in error, nothing paid of it; its work is invoiced again at the next close.',
  })
  voidInvoice(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('reason') reason: string,
  ): Promise<Invoice> {
    return services.invoices.void(ctx, id, graphqlCommand(voidInvoiceCommand, { reason }));
  }
}

/** What staff see of an invoice beyond the account's view; refused to account keys. */
@Resolver(() => Invoice)
export class InvoiceDeskFieldsResolver {
  @Authorized(Role.STAFF)
  @FieldResolver(() => Account, { nullable: true, description: 'Staff only: whose invoice it is.' })
  account(@Root() invoice: Pick<Invoice, 'account'>, @Ctx() { ctx, services }: GraphQLContext): Promise<Account> {
    return services.invoices.account(ctx, invoice);
  }
}
