import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { Account } from './account.entity';
import { newId } from '../shared/ids';

/** D27: `admin` runs the account (people too), `member` does the work, `viewer` reads. */
export enum MemberRole {
  ADMIN = 'admin',
  MEMBER = 'member',
  VIEWER = 'viewer',
}

/** The `subject_kind` of a member's sessions. */
export const MEMBER_SUBJECT = 'member';

/** `invited` until the first sign-in; a removed member stays on record (orders name who placed them). */
export enum MemberStatus {
  INVITED = 'invited',
  ACTIVE = 'active',
  REMOVED = 'removed',
}

/**
 * A person at a client account (D27). An e-mail belongs to at most one live member anywhere (a partial unique index
 * in the migration), so that a sign-in code names exactly one account.
 */
@ObjectType('Member')
@Entity({ tableName: 'account_members' })
@Index({ properties: ['account', 'createdAt'] })
@Index({
  name: 'account_members_live_email',
  expression: `create unique index "account_members_live_email" on "account_members" ("email") where "status" <> 'removed'`,
})
export class AccountMember {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?: 'createdAt' | 'lastSignInAt' | 'removedAt' | 'status' | 'updatedAt';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Rel<Account>;

  @Field()
  @Property({ type: 'string', length: 254 })
  email!: string;

  @Field()
  @Property({ type: 'string', length: 255 })
  name!: string;

  @Field(() => MemberRole)
  @Enum({ items: () => MemberRole })
  role!: MemberRole;

  @Field(() => MemberStatus)
  @Enum({ items: () => MemberStatus })
  status: MemberStatus = MemberStatus.INVITED;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  lastSignInAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  removedAt: Date | null = null;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
