import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique, type Rel } from '@mikro-orm/core';
import { newId } from '../shared/ids';
import { StoredFile } from './file.entity';

export enum AttachmentOwner {
  QUOTE = 'quote',
  ORDER = 'order',
}

/**
 * One use of a file by a quote or an order. A file with any attachment can no longer be deleted (contract
 * 2.4); the same source file may serve several quotes and orders (D5). The restrict rule makes the database
 * refuse to lose an attached file even if a code path forgot to ask.
 */
@Entity({ tableName: 'file_attachments' })
@Unique({ properties: ['file', 'ownerType', 'ownerId'] })
// An order's files are read on every poll (D23): by owner, not by file.
@Index({ properties: ['ownerId', 'ownerType'] })
export class FileAttachment {
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => StoredFile, { deleteRule: 'restrict' })
  file!: Rel<StoredFile>;

  @Enum({ items: () => AttachmentOwner })
  ownerType!: AttachmentOwner;

  @Property({ type: 'uuid' })
  ownerId!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
