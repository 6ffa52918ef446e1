import type { EntityManager } from '@mikro-orm/core';
import { runSql } from '../../db/orm-driver';

/** An arbitrary constant: the key space of the e-mail identity locks (the first of their two keys). */
const EMAIL_IDENTITY_LOCKS = 724_118_004;

/**
 * Takes, until `em`'s transaction ends, a lock on an e-mail as an identity (D36): an invitation, an account's creation
 * or approval and a staff user's creation for one e-mail run one after another, so two of them at once cannot each
 * find the e-mail free and both claim it across their separate tables.
 */
export async function lockEmailIdentity(em: EntityManager, email: string): Promise<void> {
  await runSql(em, 'SELECT pg_advisory_xact_lock(?, hashtext(?))', [EMAIL_IDENTITY_LOCKS, email]);
}
