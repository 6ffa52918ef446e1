import { Arg, Authorized, Ctx, Field, Mutation, ObjectType, Resolver } from 'type-graphql';
import { StaffRole, StaffUser } from '../../../domain/staff/staff-user.entity';
import { Role } from '../auth-checker';
import type { GraphQLContext } from '../context';

@ObjectType()
class CreatedStaffUser {
  @Field(() => StaffUser) staffUser!: StaffUser;
  @Field({ description: 'The bearer token, shown only in this answer.' }) token!: string;
}

@Resolver()
export class StaffUserResolver {
  @Authorized(Role.ADMIN)
  @Mutation(() => CreatedStaffUser, { description: 'Admins only.' })
  createStaffUser(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('email') email: string,
    @Arg('name') name: string,
    @Arg('role', () => StaffRole) role: StaffRole,
  ): Promise<CreatedStaffUser> {
    return services.staff.create(ctx, { email, name, role });
  }
}
