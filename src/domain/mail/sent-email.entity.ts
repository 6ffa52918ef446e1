import { Entity, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { newId } from '../shared/ids';

/**
 * The outbox: every message the service sends, written in the transaction of the change that sent it (D17). The
 * sandbox keeps them here and staff read them; in production a job delivers each one over SMTP after the commit.
 */
@ObjectType()
@Entity({ tableName: 'sent_emails' })
@Index({ properties: ['to', 'createdAt'] })
export class SentEmail {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?: 'createdAt';

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

  /** Shown to staff in the sandbox only (`SentEmailService.textOf`): in production it is sealed, then blanked. */
  @Property({ type: 'text' })
  text!: string;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** When the mail server accepted it (production). Its text (sealed until then) is blanked: a key e-mail holds the key. */
  @Field(() => Date, {
    nullable: true,
    description: 'When the mail server accepted it (production); null while waiting, failed, or in the sandbox.',
  })
  @Property({ type: 'datetime', nullable: true })
  deliveredAt: Date | null = null;

  /** When a delivery run took the message to the mail server (production): a second run leaves it alone meanwhile. */
  @Property({ type: 'datetime', nullable: true })
  sendingSince: Date | null = null;

  /** When delivery was given up or the message withdrawn (production); the text is blanked too. */
  @Field(() => Date, {
    nullable: true,
    description: 'When delivery was given up or the message withdrawn (production).',
  })
  @Property({ type: 'datetime', nullable: true })
  failedAt: Date | null = null;

  /** The mail server's last refusal, or why it could not be reached. */
  @Field(() => String, {
    nullable: true,
    description: "The mail server's last refusal, or why it could not be reached.",
  })
  @Property({ type: 'text', nullable: true })
  failure: string | null = null;
}
