import type { EntityManager } from '@mikro-orm/core';
import { newId } from '../shared/ids';
import { runSql } from '../../db/orm-driver';

/**
 * Records a provider's webhook event once (D26): a redelivery of the same `(provider, event_id)` leaves the first
 * row as it was, processed or not.
 */
export async function recordWebhookEvent(
  em: EntityManager,
  event: { provider: string; eventId: string; eventType: string },
): Promise<void> {
  await runSql(
    em,
    `insert into webhook_events (id, provider, event_id, event_type, received_at) values (?, ?, ?, ?, now()) on conflict (provider, event_id) do nothing`,
    [newId(), event.provider, event.eventId, event.eventType],
  );
}
