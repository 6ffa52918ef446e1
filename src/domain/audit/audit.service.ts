import type { EntityManager } from '@mikro-orm/core';
import { requireStaff } from '../accounts/authentication.service';
import type { Actor, Ctx } from '../shared/context';
import { Page, paginate, readPageRequest } from '../shared/pagination';
import { Validator } from '../shared/validation';
import { AuditEntry } from './audit-entry.entity';

export interface AuditRecord {
  action: string;
  resourceType: string;
  resourceId: string;
  fromState?: string | null;
  toState?: string | null;
  details?: Record<string, unknown>;
}

/** Writes audit rows inside the caller's transaction, so the row exists exactly when the change does. */
export class AuditService {
  /** `actor` null: the system itself (payments, the pipeline, the command line). */
  record(em: EntityManager, actor: Actor | null, record: AuditRecord): void {
    em.persist(
      Object.assign(new AuditEntry(), {
        ...record,
        actorId: actor ? (actor.kind === 'staff' ? actor.staff.id : actor.accountId) : null,
        actorLabel: actor ? (actor.kind === 'staff' ? actor.staff.email : `account ${actor.account.email}`) : 'system',
      }),
    );
  }

  /** Newest first; by resource (an id or a rate card code) when resource_id is given. */
  async list(ctx: Ctx, query: { resource_id?: string; page?: unknown; per_page?: unknown }): Promise<Page<AuditEntry>> {
    requireStaff(ctx.actor);
    const v = new Validator(query);
    const resourceId = v.string('resource_id', { max: 255 });
    const page = readPageRequest(v);
    v.done();
    const where = resourceId === undefined ? {} : { resourceId };
    return paginate(ctx.em, AuditEntry, where, page, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }
}
