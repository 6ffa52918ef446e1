import { Arg, Args, Ctx, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import {
  createAccountCommand,
  listAccountsCommand,
  setAccountBillingCommand,
} from '../../../domain/accounts/account.commands';
import { Account, AccountStatus, BillingTerms } from '../../../domain/identity/account.entity';
import type { AccountMember } from '../../../domain/identity/member.entity';
import { listMembersCommand } from '../../../domain/members/member.commands';
import { setRetentionCommand } from '../../../domain/retention/retention.commands';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';
import { MemberPage } from '../partner/member.resolver';
import { AccountIdArgs, actedOn, type ActedOn } from './acted-on';

@ObjectType()
class AccountPage extends PageOf(Account) {}

/** Staff: the account life cycle of D13. Every mutation writes an audit row in the service. */
@Authorized(Role.STAFF)
@Resolver()
export class StaffAccountResolver {
  @Query(() => AccountPage, { description: 'Accounts, newest first; `search` matches the name or the e-mail.' })
  async accounts(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('status', () => AccountStatus, { nullable: true }) status?: AccountStatus,
    @Arg('search', () => String, { nullable: true }) search?: string,
  ): Promise<PageResult<Account>> {
    return toPageResult(
      await services.accounts.list(ctx, graphqlCommand(listAccountsCommand, { status, search, ...pageArgs })),
    );
  }

  @Query(() => MemberPage, { description: "An account's members, oldest first; removed members are not listed." })
  async accountMembers(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('accountId', () => ID) accountId: string,
  ): Promise<PageResult<AccountMember>> {
    return toPageResult(
      await services.members.listOfAccount(ctx, accountId, graphqlCommand(listMembersCommand, { ...pageArgs })),
    );
  }

  @Mutation(() => Account, { description: 'Creates a pending account; approve it to issue its key.' })
  createAccount(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('name') name: string,
    @Arg('email') email: string,
  ): Promise<Account> {
    return services.accounts.create(ctx, graphqlCommand(createAccountCommand, { name, email }));
  }

  @Mutation(() => Account, {
    description: 'Approves a pending account (e-mailing its first key) or reinstates a suspended one.',
  })
  approveAccount(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<Account> {
    return services.accounts.approve(ctx, id);
  }

  @Mutation(() => Account, { description: 'Suspends an approved account: its key then answers 403.' })
  suspendAccount(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<Account> {
    return services.accounts.suspend(ctx, id);
  }

  @Mutation(() => Account, { description: 'Issues a new key by e-mail; the old one answers 401 at once.' })
  regenerateApiKey(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => AccountIdArgs) ref: ActedOn<'accountId'>,
  ): Promise<Account> {
    return services.accounts.regenerateKey(ctx, actedOn(ref, 'accountId'));
  }

  @Mutation(() => Account, { description: 'Revokes the current key: it answers 401 at once.' })
  revokeApiKey(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => AccountIdArgs) ref: ActedOn<'accountId'>,
  ): Promise<Account> {
    return services.accounts.revokeKey(ctx, actedOn(ref, 'accountId'));
  }

  @Mutation(() => Account, {
    description: "An account's retention period in days (1 to 3650), or null to keep its documents (D33). Audited.",
  })
  setAccountRetention(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('accountId', () => ID) accountId: string,
    @Arg('days', () => Int, { nullable: true }) days: number | null,
  ): Promise<Account> {
    return services.retention.setAccountRetention(ctx, accountId, graphqlCommand(setRetentionCommand, { days }));
  }

  @Mutation(() => Account, {
    description:
      'Admins: how the account pays from its next order on: CHECKOUT (each order at the checkout) or NET_15/NET_30 (on account, invoiced monthly, up to the credit limit), and whether quotes need a purchase order.',
  })
  setAccountBilling(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('accountId', () => ID) accountId: string,
    @Arg('terms', () => BillingTerms) terms: BillingTerms,
    @Arg('creditLimitCents', () => Int) creditLimitCents: number,
    @Arg('purchaseOrderRequired') purchaseOrderRequired: boolean,
  ): Promise<Account> {
    return services.accounts.setBilling(
      ctx,
      accountId,
      graphqlCommand(setAccountBillingCommand, { terms, creditLimitCents, purchaseOrderRequired }),
    );
  }
}
