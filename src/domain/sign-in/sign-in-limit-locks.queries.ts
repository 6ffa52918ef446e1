import type { EntityManager } from '@mikro-orm/core';
import { runSql } from '../../db/orm-driver';

/** An arbitrary constant: the key space of the sign-in limits' advisory locks (the first of their two keys). */
const SIGN_IN_LIMIT_LOCKS = 724_118_003;

/**
 * Takes, until `em`'s transaction ends, a lock on the e-mail and then on the client address, always in that order (so
 * two callers never deadlock): sign-in code requests for either are counted one after another (D27).
 */
export async function lockSignInLimits(em: EntityManager, email: string, clientAddress: string): Promise<void> {
  await runSql(em, 'SELECT pg_advisory_xact_lock(?, hashtext(?)), pg_advisory_xact_lock(?, hashtext(?))', [
    SIGN_IN_LIMIT_LOCKS,
    `e:${email}`,
    SIGN_IN_LIMIT_LOCKS,
    `a:${clientAddress}`,
  ]);
}
