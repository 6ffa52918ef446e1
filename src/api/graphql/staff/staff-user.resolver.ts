import { Arg, Args, Authorized, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { StaffRole, StaffUser } from '../../../domain/staff/staff-user.entity';
import { Role } from '../auth-checker';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, pageQuery, toPageResult, type PageResult } from '../types/page';

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
  @Query(() => StaffUserPage, { description: 'Active staff first, by name.' })
  async staffUsers(@Ctx() { ctx, services }: GraphQLContext, @Args(() => PageArgs) pageArgs: PageArgs): Promise<PageResult<StaffUser>> {
    return toPageResult(await services.staff.list(ctx, pageQuery(pageArgs)));
  }

  @Mutation(() => CreatedStaffUser, { description: 'Admins only.' })
  createStaffUser(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('email') email: string,
    @Arg('name') name: string,
    @Arg('role', () => StaffRole) role: StaffRole,
  ): Promise<CreatedStaffUser> {
    return services.staff.create(ctx, { email, name, role });
  }

  @Mutation(() => StaffUser, { description: 'Full name and credentials as certificates print them. One\'s own profile, or anyone\'s for an admin.' })
  updateStaffProfile(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('name') name: string,
    @Arg('credentials', () => String, { nullable: true, description: 'For example "ATA-certified translator no. 123456"; null clears it.' }) credentials?: string | null,
  ): Promise<StaffUser> {
    return services.staff.updateProfile(ctx, id, { name, credentials });
  }

  @Mutation(() => StaffUser, { description: 'Admins only: the user\'s token answers 401 at once.' })
  deactivateStaffUser(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<StaffUser> {
    return services.staff.deactivate(ctx, id);
  }

  @Mutation(() => CreatedStaffUser, { description: 'A new token for the caller, shown only in this answer; the old one answers 401 at once.' })
  rotateStaffToken(@Ctx() { ctx, services }: GraphQLContext): Promise<CreatedStaffUser> {
    return services.staff.rotateOwnToken(ctx);
  }
}
