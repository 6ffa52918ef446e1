import { Arg, Args, Ctx, FieldResolver, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { Account } from '../../../domain/identity/account.entity';
import {
  inviteMemberCommand,
  listMembersCommand,
  updateMemberRoleCommand,
} from '../../../domain/members/member.commands';
import { AccountMember, MemberRole } from '../../../domain/identity/member.entity';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';

@ObjectType()
export class MemberPage extends PageOf(AccountMember) {}

/** People at the account (D27): an admin member's session lists, invites, re-roles and removes them. */
@Authorized(Role.ACCOUNT)
@Resolver(() => AccountMember)
export class MemberResolver {
  @Authorized('members.read')
  @Query(() => MemberPage, { description: "The account's members, oldest first; removed members are not listed." })
  async members(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
  ): Promise<PageResult<AccountMember>> {
    return toPageResult(await services.members.list(ctx, graphqlCommand(listMembersCommand, { ...pageArgs })));
  }

  @Authorized('members.manage')
  @Mutation(() => AccountMember, {
    description: 'E-mails an invitation; the person then signs in with a code sent to that e-mail.',
  })
  inviteMember(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('email') email: string,
    @Arg('name') name: string,
    @Arg('role', () => MemberRole) role: MemberRole,
  ): Promise<AccountMember> {
    return services.members.invite(ctx, graphqlCommand(inviteMemberCommand, { email, name, role }));
  }

  @Authorized('members.manage')
  @Mutation(() => AccountMember, { description: 'The last admin cannot be demoted.' })
  updateMemberRole(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('role', () => MemberRole) role: MemberRole,
  ): Promise<AccountMember> {
    return services.members.updateRole(ctx, id, graphqlCommand(updateMemberRoleCommand, { role }));
  }

  @Mutation(() => AccountMember, {
    description: "Ends the member's sessions at once; the last admin cannot be removed.",
  })
  removeMember(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<AccountMember> {
    return services.members.remove(ctx, id);
  }
}

/** `me { viewer }`: the signed-in member; null for the API key (and for staff reading accounts). */
@Resolver(() => Account)
export class AccountViewerResolver {
  @FieldResolver(() => AccountMember, {
    nullable: true,
    description: 'The member whose session this is; null for the API key.',
  })
  async viewer(@Ctx() { ctx }: GraphQLContext): Promise<AccountMember | null> {
    const actor = ctx.actor;
    if (actor?.kind !== 'account' || !actor.member) return null;
    return ctx.em.findOne(AccountMember, { id: actor.member.id });
  }
}
