import type { Actor } from '../identity/context';
import type { Subscriber } from '../shared/event-hub';
import type { AuditService } from './audit.service';

/** What the audit trail needs of an event about a row: the shape of a lifecycle's events (`LifecycleEvent`). */
export interface AuditedEvent {
  /** The row's kind: `order` or `booking`, the resource type and the prefix of the action. */
  noun: string;
  row: { id: string };
  from: string;
  to: string;
  cause: { actor: Actor | null; action: string; reason?: string };
  details?: Record<string, unknown>;
}

/**
 * The subscriber that writes one audit row per event (`order.cancel`, `booking.paid`), in the transaction that raised
 * it, so the row exists exactly when the change does (docs/architecture.md "Domain events").
 */
export function auditTrail(audit: AuditService): Subscriber<AuditedEvent> {
  return (em, event) => {
    const { noun, row, from, to, cause } = event;
    const details = { ...(cause.reason ? { reason: cause.reason } : {}), ...event.details };
    audit.record(em, cause.actor, {
      action: `${noun}.${cause.action}`,
      resourceType: noun,
      resourceId: row.id,
      fromState: from,
      toState: to,
      details: Object.keys(details).length ? details : undefined,
    });
    return Promise.resolve();
  };
}
