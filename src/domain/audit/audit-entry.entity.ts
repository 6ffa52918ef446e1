import { Entity, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { newId } from '../shared/ids';

/** One staff (or system) action: who, what, on which resource, from and to which state, when (D13). */
@ObjectType()
@Entity({ tableName: 'audit_entries' })
@Index({ properties: ['resourceId', 'createdAt'] })
// auditLog's other filters (D28): by actor, by action, and a window of time.
@Index({ properties: ['actorId', 'createdAt'] })
@Index({ properties: ['action', 'createdAt'] })
@Index({ properties: ['createdAt', 'id'] })
export class AuditEntry {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?: 'createdAt' | 'details';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Field(() => String, {
    nullable: true,
    description: 'The staff user, account or member that acted; null for the system itself.',
  })
  @Property({ type: 'uuid', nullable: true })
  actorId: string | null = null;

  @Field({
    description: 'The actor as shown to people: a staff e-mail, "account <e-mail>", "member <e-mail>", or "system".',
  })
  @Property({ type: 'string', length: 254 })
  actorLabel!: string;

  @Field({ description: 'Dotted action name, for example account.approve.' })
  @Property({ type: 'string', length: 100 })
  action!: string;

  @Field()
  @Property({ type: 'string', length: 50 })
  resourceType!: string;

  /** The resource's id, or the code of a rate card line (`rush_2h`, `certified`, `asl`). */
  @Field()
  @Property({ type: 'string', length: 100 })
  resourceId!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 50, nullable: true })
  fromState: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 50, nullable: true })
  toState: string | null = null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  @Property({ type: 'json', nullable: true })
  details: Record<string, unknown> | null = null;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
