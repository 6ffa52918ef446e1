import type { EntityManager } from '@mikro-orm/core';
import { PROCESS_CLAIMS } from './process-claim';
import { runSql } from './orm-driver';

/** The ids of the processes alive now, on any machine sharing the database: the holders of a `ProcessClaim` (D25). */
export async function liveProcessIds(em: EntityManager): Promise<Set<number>> {
  const rows = await runSql<{ id: number }>(
    em,
    `SELECT objid::int AS id FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND classid = ? AND objsubid = 2 AND granted`,
    [PROCESS_CLAIMS],
  );
  return new Set(rows.map((row) => row.id));
}
