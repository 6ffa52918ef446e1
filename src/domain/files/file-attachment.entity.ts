import { Check, Entity, Index, ManyToOne, PrimaryKey, Property, Unique, type Rel } from '@mikro-orm/core';
import { newId } from '../shared/ids';
import { StoredFile } from './file.entity';

/**
 * The quote or order a file is attached to, as this area sees it: its id. The relations name their entities to
 * MikroORM by name ('Quote', 'Order'), so files, which quotes and orders build on, imports neither.
 */
export interface Owner {
  id: string;
}

export enum AttachmentOwner {
  QUOTE = 'quote',
  ORDER = 'order',
}

/**
 * One use of a file by a quote or an order. A file with any attachment can no longer be deleted (contract
 * 2.4); the same source file may serve several quotes and orders (D5). The restrict rule makes the database
 * refuse to lose an attached file even if a code path forgot to ask. The owner is a real foreign key, exactly one
 * of `quote` and `order` (checked); an attachment goes with its quote or order.
 */
@Entity({ tableName: 'file_attachments' })
@Check({ name: 'file_attachments_one_owner_check', expression: 'num_nonnulls("quote_id", "order_id") = 1' })
// An order's files are read on every poll (D23), a quote's when it is converted: by owner first.
@Unique({ properties: ['order', 'file'] })
@Unique({ properties: ['quote', 'file'] })
export class FileAttachment {
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  // Whether a file is attached, and to which orders (D18), is asked by file.
  @Index()
  @ManyToOne(() => StoredFile, { deleteRule: 'restrict' })
  file!: Rel<StoredFile>;

  @ManyToOne('Quote', { nullable: true, deleteRule: 'cascade' })
  quote: Rel<Owner> | null = null;

  @ManyToOne('Order', { nullable: true, deleteRule: 'cascade' })
  order: Rel<Owner> | null = null;

  /**
   * A reference file the client gave with a revision request (D30): shown to staff beside the order's files, never one
   * of the files the order translates or delivers.
   */
  @Property({ type: 'boolean', default: false })
  reference: boolean = false;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
