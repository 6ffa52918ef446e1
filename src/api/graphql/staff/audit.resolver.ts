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
  @Query(() => AuditEntryPage, { description: 'Staff actions, newest first; for one resource when resourceId is given.' })
  async auditLog(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('resourceId', () => ID, { nullable: true }) resourceId?: string,
  ): Promise<PageResult<AuditEntry>> {
    return toPageResult(await services.audit.list(ctx, { resource_id: resourceId, ...pageQuery(pageArgs) }));
  }
}
