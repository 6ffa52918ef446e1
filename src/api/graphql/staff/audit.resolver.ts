import { Arg, Args, Ctx, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { listAuditEntriesCommand } from '../../../domain/audit/audit.commands';
import { AuditEntry } from '../../../domain/audit/audit-entry.entity';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';

@ObjectType()
class AuditEntryPage extends PageOf(AuditEntry) {}

@Authorized(Role.STAFF)
@Resolver()
export class AuditResolver {
  @Query(() => AuditEntryPage, {
    description:
      'Staff actions, newest first; narrowed by resource, actor, action (e.g. order.cancel) and time (`from` inclusive, `to` exclusive).',
  })
  async auditLog(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('resourceId', () => ID, { nullable: true }) resourceId?: string,
    @Arg('actorId', () => ID, { nullable: true }) actorId?: string,
    @Arg('action', () => String, { nullable: true }) action?: string,
    @Arg('from', () => Date, { nullable: true }) from?: Date,
    @Arg('to', () => Date, { nullable: true }) to?: Date,
  ): Promise<PageResult<AuditEntry>> {
    // A DateTime arrives as a Date: its instant is all a filter needs, so UTC is the offset it is read with.
    const command = graphqlCommand(listAuditEntriesCommand, {
      resourceId,
      actorId,
      action,
      from: from?.toISOString(),
      to: to?.toISOString(),
      ...pageArgs,
    });
    return toPageResult(await services.audit.list(ctx, command));
  }
}
