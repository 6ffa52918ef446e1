import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { newId } from '../shared/ids';

/** D28: what each role may do is decided by one table, staff-permissions.ts. */
export enum StaffRole {
  ADMIN = 'admin',
  DESK = 'desk',
  TRANSLATOR = 'translator',
}

/** An operator's employee with a bearer token (`ltk_staff_...`) for the staff half of GraphQL (D13). */
@ObjectType()
@Entity({ tableName: 'staff_users' })
export class StaffUser {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?: 'createdAt' | 'credentials' | 'deactivatedAt' | 'role';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Field()
  @Property({ type: 'string', length: 254, unique: true })
  email!: string;

  @Field()
  @Property({ type: 'string', length: 255 })
  name!: string;

  @Field(() => StaffRole)
  @Enum({ items: () => StaffRole })
  role: StaffRole = StaffRole.DESK;

  @Field(() => String, {
    nullable: true,
    description: 'Printed under the name on certificates of accuracy, e.g. "ATA-certified translator no. 123456".',
  })
  @Property({ type: 'string', length: 255, nullable: true })
  credentials: string | null = null;

  @Property({ type: 'string', length: 64, unique: true })
  tokenHash!: string;

  /** Set by an admin; from then on the token answers 401. */
  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  deactivatedAt: Date | null = null;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
