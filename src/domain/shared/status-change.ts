import { LockMode, type EntityManager, type EntityName, type FilterQuery } from '@mikro-orm/core';
import type { AuditService } from '../audit/audit.service';
import type { Ctx } from './context';
import { NotFoundError, ValidationError } from './errors';
import { isId } from './ids';
import { assertTransition, type TransitionTable } from './state-machine';

/** What orders and bookings share: a status, and the hold that remembers where it interrupted them. */
export interface Holdable<S extends string> {
  id: string;
  status: S;
  heldFrom: S | null;
  holdReason: string | null;
}

const ON_HOLD = 'on_hold';

/**
 * One status change: lock the row, apply the move, write the audit row, in one transaction. Every staff and
 * client move of orders and bookings goes through here.
 */
export function changeStatusLocked<E extends Holdable<string>>(options: {
  ctx: Ctx;
  entity: EntityName<E>;
  id: unknown;
  resourceType: string;
  action: string;
  audit: AuditService;
  reason?: string;
  populate?: string[];
  apply: (em: EntityManager, locked: E) => Promise<void>;
}): Promise<E> {
  const { ctx, id } = options;
  if (!isId(id)) throw new NotFoundError();
  return ctx.em.transactional(async (em) => {
    const locked = (await em.findOne(options.entity, { id } as FilterQuery<E>, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
      refresh: true,
      populate: (options.populate ?? []) as never,
    })) as E | null;
    if (!locked) throw new NotFoundError();
    const from = locked.status;
    await options.apply(em, locked);
    options.audit.record(em, ctx.actor, {
      action: `${options.resourceType}.${options.action}`,
      resourceType: options.resourceType,
      resourceId: locked.id,
      fromState: from,
      toState: locked.status,
      details: options.reason ? { reason: options.reason } : undefined,
    });
    return locked;
  });
}

/** Puts the row on hold, remembering the state it interrupts. */
export function placeOnHold<S extends string>(target: Holdable<S>, table: TransitionTable<S>, reason: string, noun: string): void {
  assertTransition(table, target.status, ON_HOLD as S, `hold the ${noun}`);
  Object.assign(target, { heldFrom: target.status, holdReason: reason, status: ON_HOLD });
}

/** Back to the state the hold interrupted; answers the state it resumed. */
export function releaseHold<S extends string>(target: Holdable<S>, noun: string): S {
  if (target.status !== ON_HOLD || !target.heldFrom) {
    throw ValidationError.of('status', `Cannot release the ${noun} while the status is ${target.status}.`);
  }
  const resumed = target.heldFrom;
  Object.assign(target, { status: resumed, heldFrom: null, holdReason: null });
  return resumed;
}
