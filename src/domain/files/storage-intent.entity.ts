import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A storage key a process is about to write bytes under (D25), committed before the first byte is written and
 * deleted in the transaction that commits the file row claiming the key. One left behind by a dead process
 * (ProcessClaim) names bytes no row will ever claim: the sweep at start removes them.
 */
@Entity({ tableName: 'storage_intents' })
export class StorageIntent {
  @PrimaryKey({ type: 'string', length: 100 })
  storageKey!: string;

  @Property({ type: 'integer' })
  processId!: number;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
