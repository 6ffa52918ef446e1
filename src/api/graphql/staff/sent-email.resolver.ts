import { Arg, Args, Ctx, FieldResolver, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { listSentEmailsCommand } from '../../../domain/mail/sent-email.commands';
import { SentEmail } from '../../../domain/mail/sent-email.entity';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';

@ObjectType()
class SentEmailPage extends PageOf(SentEmail) {}

@Authorized(Role.STAFF)
@Resolver()
export class SentEmailResolver {
  @Query(() => SentEmailPage, {
    description: 'Every e-mail the service sent, newest first, with its delivery state; its text in the sandbox only.',
  })
  async sentEmails(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('to', { nullable: true }) to?: string,
  ): Promise<PageResult<SentEmail>> {
    return toPageResult(
      await services.sentEmails.list(ctx, graphqlCommand(listSentEmailsCommand, { to, ...pageArgs })),
    );
  }
}

@Resolver(() => SentEmail)
export class SentEmailFieldsResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: 'The message as sent: in the sandbox only (in production it is sealed, then blanked once delivered).',
  })
  text(@Root() mail: SentEmail, @Ctx() { services }: GraphQLContext): string | null {
    return services.sentEmails.textOf(mail);
  }
}
