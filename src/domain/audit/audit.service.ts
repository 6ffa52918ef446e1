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
  /** `actor` null: the system itself (payments, the pipeline). */
  record(em: EntityManager, actor: Actor | null, record: AuditRecord): void {
    em.persist(Object.assign(new AuditEntry(), { ...record, ...recordedActor(actor) }));
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

function recordedActor(actor: Actor | null): { actorId: string | null; actorLabel: string } {
  switch (actor?.kind) {
    case 'staff':
      return { actorId: actor.staff.id, actorLabel: actor.staff.email };
    case 'account':
      return { actorId: actor.accountId, actorLabel: `account ${actor.account.email}` };
    case 'operator':
      return { actorId: null, actorLabel: 'command line' };
    default:
      return { actorId: null, actorLabel: 'system' };
  }
}
