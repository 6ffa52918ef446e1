import { Entity, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { newId } from '../shared/ids';

/**
 * One e-mailed sign-in code (D27), kept only as an HMAC of the code under the application key: a leaked table
 * cannot be searched through the million possible codes. A row is written for every request, known e-mail or not,
 * so both cost the same and per-e-mail and per-address limits count the same rows.
 */
@Entity({ tableName: 'sign_in_codes' })
@Index({ properties: ['email', 'createdAt'] })
@Index({ properties: ['requestedFrom', 'createdAt'] })
export class SignInCode {
  /** Set by their defaults when `em.create` is not given them. */
  [OptionalProps]?: 'attempts' | 'createdAt' | 'usedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Property({ type: 'string', length: 254 })
  email!: string;

  @Property({ type: 'string', length: 64 })
  codeHash!: string;

  /** The client address that asked, for the per-address limit. */
  @Property({ type: 'string', length: 64 })
  requestedFrom!: string;

  @Property({ type: 'integer' })
  attempts: number = 0;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  usedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
