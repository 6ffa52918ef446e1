import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { newId } from '../shared/ids';

/**
 * A signed-in session (D27): its bearer token is stored only as a SHA-256 hash, like an API key. `subjectKind` names
 * who signed in (`member` today), so that the same table and expiry rules can serve other kinds of people.
 */
@Entity({ tableName: 'sessions' })
@Index({ properties: ['subjectKind', 'subjectId'] })
export class Session {
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Property({ type: 'string', length: 64, unique: true })
  tokenHash!: string;

  @Property({ type: 'string', length: 20 })
  subjectKind!: string;

  @Property({ type: 'uuid' })
  subjectId!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** Moved on use (at most once a minute): 12 hours without use end the session. */
  @Property({ type: 'datetime' })
  lastUsedAt: Date = new Date();

  /** The absolute end: 30 days after sign-in. */
  @Property({ type: 'datetime' })
  expiresAt!: Date;

  /** Signed out, or its member removed or account suspended. */
  @Property({ type: 'datetime', nullable: true })
  endedAt: Date | null = null;
}
