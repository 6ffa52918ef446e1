import { Arg, Args, Authorized, Ctx, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { AuditEntry } from '../../../domain/audit/audit-entry.entity';
import { Role } from '../auth-checker';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, pageQuery, toPageResult, type PageResult } from '../types/page';

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
    const query = {
      resource_id: resourceId,
      actor_id: actorId,
      action,
      from: from?.toISOString(),
      to: to?.toISOString(),
      ...pageQuery(pageArgs),
    };
    return toPageResult(await services.audit.list(ctx, query));
  }
}
