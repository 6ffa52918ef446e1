import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { newId } from '../shared/ids';

/** The sandbox outbox: every message the service sends is kept here instead of leaving the machine (D17). */
@ObjectType()
@Entity({ tableName: 'sent_emails' })
@Index({ properties: ['to', 'createdAt'] })
export class SentEmail {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Field({ description: 'What the message is about, for example api_key.' })
  @Property({ type: 'string', length: 50 })
  kind!: string;

  @Field()
  @Property({ type: 'string', length: 254 })
  to!: string;

  @Field()
  @Property({ type: 'string', length: 254 })
  from!: string;

  @Field()
  @Property({ type: 'string', length: 255 })
  subject!: string;

  @Field()
  @Property({ type: 'text' })
  text!: string;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
