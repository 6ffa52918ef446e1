import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { requireStaff } from '../identity/guards';
import type { Actor, Ctx } from '../identity/context';
import { Page, pageRequest, paginate } from '../shared/pagination';
import type { ListAuditEntries } from './audit.commands';
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
    em.create(AuditEntry, { ...record, ...recordedActor(actor) });
  }

  /**
   * Newest first; narrowed by resource (an id or a rate card code), actor (a staff user's or an account's id),
   * action (`order.cancel`) and a window of time (`from` inclusive, `to` exclusive), each served by an index.
   */
  async list(ctx: Ctx, command: ListAuditEntries): Promise<Page<AuditEntry>> {
    requireStaff(ctx.actor, 'auditLog');
    const { resourceId, actorId, action } = command;
    const [from, to] = [command.from?.date, command.to?.date];
    const where: FilterQuery<AuditEntry> = {
      ...(resourceId === undefined ? {} : { resourceId }),
      ...(actorId === undefined ? {} : { actorId }),
      ...(action === undefined ? {} : { action }),
      ...(from || to ? { createdAt: { ...(from ? { $gte: from } : {}), ...(to ? { $lt: to } : {}) } } : {}),
    };
    return paginate(ctx.em, AuditEntry, where, pageRequest(command), { orderBy: { createdAt: 'desc', id: 'desc' } });
  }
}

function recordedActor(actor: Actor | null): { actorId: string | null; actorLabel: string } {
  switch (actor?.kind) {
    case 'staff':
      return { actorId: actor.staff.id, actorLabel: actor.staff.email };
    case 'account':
      // A member acts as themself (D27); the key acts as the account.
      if (actor.member) return { actorId: actor.member.id, actorLabel: `member ${actor.member.email}` };
      return { actorId: actor.accountId, actorLabel: `account ${actor.account.email}` };
    case 'operator':
      return { actorId: null, actorLabel: 'command line' };
    default:
      return { actorId: null, actorLabel: 'system' };
  }
}
