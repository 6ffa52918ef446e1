import type { EntityManager } from '@mikro-orm/core';
import { runSql } from '../../db/orm-driver';

/**
 * How many files of the account, other than `fileId`, wait for their analysis, counted up to `bound` through the
 * partial index of pending files (`files_pending_by_account`), in the caller's transaction.
 */
export async function waitingAnalyses(
  em: EntityManager,
  accountId: string,
  fileId: string,
  bound: number,
): Promise<number> {
  const [{ waiting }] = (await runSql<{ waiting: number }>(
    em,
    `select count(*)::int as waiting from (select 1 from files where account_id = ? and analysis_status = 'pending' and id <> ? limit ?) pending`,
    [accountId, fileId, bound],
  )) as [{ waiting: number }];
  return waiting;
}
