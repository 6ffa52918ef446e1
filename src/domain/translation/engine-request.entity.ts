import { Entity, ManyToOne, PrimaryKey, Property, Unique, type Rel } from '@mikro-orm/core';
import { StoredFile } from '../files/file.entity';
import { Order } from '../orders/order.entity';
import { newId } from '../shared/ids';

/**
 * D11: a source document of an order that the translation engine has accepted and whose translation is not stored
 * yet. Written before the wait for the engine, removed with the stored translation: a rerun of the job resumes
 * this document instead of sending it again, so the engine is asked once per document of an order.
 */
@Entity({ tableName: 'translation_engine_requests' })
@Unique({ properties: ['order', 'source'] })
export class EngineRequest {
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order!: Rel<Order>;

  @ManyToOne(() => StoredFile, { deleteRule: 'cascade' })
  source!: Rel<StoredFile>;

  /** The engine that holds the document (a handle means nothing to another engine). */
  @Property({ type: 'string', length: 20 })
  engine!: string;

  /** The engine's handle on the document (DeepL: its document id and key), opaque here. */
  @Property({ type: 'text' })
  reference!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
