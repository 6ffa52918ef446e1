import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { Account } from '../../../domain/accounts/account.entity';
import { requireAccount } from '../../../domain/accounts/authentication.service';
import { Role } from '../auth-checker';
import type { GraphQLContext } from '../context';

@Resolver()
export class MeResolver {
  @Authorized(Role.ACCOUNT)
  @Query(() => Account, { description: 'The account the API key or session belongs to; `viewer` is the signed-in member.' })
  me(@Ctx() { ctx }: GraphQLContext): Account {
    return requireAccount(ctx.actor, 'account.read');
  }
}
