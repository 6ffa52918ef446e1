import { Arg, Args, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { StaffRole, StaffUser } from '../../../domain/identity/staff-user.entity';
import {
  createStaffUserCommand,
  listStaffUsersCommand,
  updateStaffProfileCommand,
} from '../../../domain/staff/staff.commands';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';

@ObjectType()
class CreatedStaffUser {
  @Field(() => StaffUser) staffUser!: StaffUser;
  @Field({ description: 'The bearer token, shown only in this answer.' }) token!: string;
}

@ObjectType()
class StaffUserPage extends PageOf(StaffUser) {}

/** Staff people and their tokens (D13); who may do what is decided in the service, and every change is audited. */
@Authorized(Role.STAFF)
@Resolver()
export class StaffUserResolver {
  @Query(() => StaffUser, { description: 'The caller.' })
  staffMe(@Ctx() { ctx, services }: GraphQLContext): Promise<StaffUser> {
    return services.staff.me(ctx);
  }

  @Query(() => StaffUserPage, { description: 'Active staff first, by name; of one role when asked.' })
  async staffUsers(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('role', () => StaffRole, { nullable: true }) role?: StaffRole,
  ): Promise<PageResult<StaffUser>> {
    return toPageResult(await services.staff.list(ctx, graphqlCommand(listStaffUsersCommand, { role, ...pageArgs })));
  }

  @Mutation(() => CreatedStaffUser, { description: 'Admins only.' })
  createStaffUser(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('email') email: string,
    @Arg('name') name: string,
    @Arg('role', () => StaffRole) role: StaffRole,
    @Arg('credentials', () => String, {
      nullable: true,
      description: 'As certificates print them; needed to complete certified orders.',
    })
    credentials?: string | null,
  ): Promise<CreatedStaffUser> {
    return services.staff.create(ctx, graphqlCommand(createStaffUserCommand, { email, name, role, credentials }));
  }

  @Mutation(() => StaffUser, {
    description:
      "Full name and credentials as certificates print them. One's own profile, or anyone's for an admin; only an admin changes a role, and the last active admin keeps theirs.",
  })
  updateStaffProfile(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('name') name: string,
    @Arg('credentials', () => String, {
      nullable: true,
      description: 'For example "ATA-certified translator no. 123456"; null clears it.',
    })
    credentials?: string | null,
    @Arg('role', () => StaffRole, { nullable: true, description: 'Admins only; left out, the role stays.' })
    role?: StaffRole,
  ): Promise<StaffUser> {
    return services.staff.updateProfile(
      ctx,
      id,
      graphqlCommand(updateStaffProfileCommand, { name, credentials, role }),
    );
  }

  @Mutation(() => StaffUser, {
    description: "Admins only: the user's token answers 401 at once. The last active admin cannot be deactivated.",
  })
  deactivateStaffUser(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<StaffUser> {
    return services.staff.deactivate(ctx, id);
  }

  @Mutation(() => CreatedStaffUser, {
    description: 'A new token for the caller, shown only in this answer; the old one answers 401 at once.',
  })
  rotateStaffToken(@Ctx() { ctx, services }: GraphQLContext): Promise<CreatedStaffUser> {
    return services.staff.rotateOwnToken(ctx);
  }
}
