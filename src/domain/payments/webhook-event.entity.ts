import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { newId } from '../shared/ids';

/** Every verified provider event, recorded before it is processed: a redelivery of a processed one is a no-op (D9). */
@Entity({ tableName: 'webhook_events' })
@Unique({ properties: ['provider', 'eventId'] })
export class WebhookEvent {
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Property({ type: 'string', length: 20 })
  provider!: string;

  @Property({ type: 'string', length: 100 })
  eventId!: string;

  /** The neutral kind (approved, captured, reversed, ignored). */
  @Property({ type: 'string', length: 100 })
  eventType!: string;

  @Property({ type: 'datetime' })
  receivedAt: Date = new Date();

  /** Null until processing succeeded: a redelivery of an event whose processing failed runs it again. */
  @Property({ type: 'datetime', nullable: true })
  processedAt: Date | null = null;
}
