import { Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Account } from '../../../domain/identity/account.entity';
import { requireAccount } from '../../../domain/identity/guards';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';

@Resolver()
export class MeResolver {
  @Authorized(Role.ACCOUNT)
  @Query(() => Account, {
    description: 'The account the API key or session belongs to; `viewer` is the signed-in member.',
  })
  me(@Ctx() { ctx }: GraphQLContext): Account {
    return requireAccount(ctx.actor, 'account.read');
  }

  @Authorized(Role.ACCOUNT)
  @Mutation(() => Account, {
    description:
      "Admin members: a new API key, e-mailed to the account's address (never answered here); the old key stops working at once.",
  })
  regenerateAccountApiKey(@Ctx() { ctx, services }: GraphQLContext): Promise<Account> {
    return services.accounts.regenerateOwnKey(ctx);
  }

  @Authorized(Role.ACCOUNT)
  @Mutation(() => Account, {
    description:
      'Admin members: the API key stops working at once; members keep signing in, and regenerateAccountApiKey issues a new one.',
  })
  revokeAccountApiKey(@Ctx() { ctx, services }: GraphQLContext): Promise<Account> {
    return services.accounts.revokeOwnKey(ctx);
  }
}
