import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { newId } from '../shared/ids';

/** Every provider event handled once: a redelivered event id is acknowledged and ignored (D9). */
@Entity({ tableName: 'webhook_events' })
@Unique({ properties: ['provider', 'eventId'] })
export class WebhookEvent {
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Property({ type: 'string', length: 20 })
  provider!: string;

  @Property({ type: 'string', length: 100 })
  eventId!: string;

  @Property({ type: 'string', length: 100 })
  eventType!: string;

  @Property({ type: 'datetime' })
  receivedAt: Date = new Date();
}
