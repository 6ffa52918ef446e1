import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { newId } from '../shared/ids';
import { Order } from './order.entity';

/** Which side of an order's conversation wrote a message (D30). */
export enum MessageAuthorKind {
  CLIENT = 'client',
  STAFF = 'staff',
}

/** The longest message either side may write (D30). */
export const MAX_MESSAGE_LENGTH = 4000;

/** Who wrote a message, as they were named when they wrote it. */
@ObjectType('OrderMessageAuthor')
export class MessageAuthor {
  @Field(() => MessageAuthorKind) kind!: MessageAuthorKind;
  @Field({ description: 'The member or the account (client), or the staff member, by name.' }) name!: string;
}

/**
 * D30: one message of the conversation between the client and the desk about an order; both sides read it. Its text
 * is the writer's, untrusted: bounded here and by the command, and never put into HTML unescaped.
 */
@ObjectType()
@Entity({ tableName: 'order_messages' })
// An order's conversation a page at a time, newest first (D3), with the tie-break.
@Index({ name: 'order_messages_order_created', properties: ['order', 'createdAt', 'id'] })
export class OrderMessage {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?: 'createdAt' | 'author';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order!: Rel<Order>;

  @Enum({ items: () => MessageAuthorKind })
  authorKind!: MessageAuthorKind;

  @Property({ type: 'string', length: 255 })
  authorName!: string;

  @Field()
  @Property({ type: 'string', length: MAX_MESSAGE_LENGTH })
  text!: string;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field(() => MessageAuthor)
  get author(): MessageAuthor {
    return { kind: this.authorKind, name: this.authorName };
  }
}
