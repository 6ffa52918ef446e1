import { Arg, Args, Authorized, Ctx, ObjectType, Query, Resolver } from 'type-graphql';
import { SentEmail } from '../../../domain/mail/sent-email.entity';
import { Role } from '../auth-checker';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, pageQuery, toPageResult, type PageResult } from '../types/page';

@ObjectType()
class SentEmailPage extends PageOf(SentEmail) {}

@Authorized(Role.STAFF)
@Resolver()
export class SentEmailResolver {
  @Query(() => SentEmailPage, { description: 'Sandbox only: the outbox of every e-mail the service sent, newest first.' })
  async sentEmails(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('to', { nullable: true }) to?: string,
  ): Promise<PageResult<SentEmail>> {
    return toPageResult(await services.sentEmails.list(ctx, { to, ...pageQuery(pageArgs) }));
  }
}
