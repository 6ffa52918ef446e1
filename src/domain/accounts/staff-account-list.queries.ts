import type { EntityManager } from '@mikro-orm/core';
import { Account, type AccountStatus } from '../identity/account.entity';
import type { Page, PageRequest } from '../shared/pagination';
import { containsPattern, QueueFilter, readQueuePage, type DeskQueue } from '../shared/desk-queue.queries';

export interface StaffAccountFilter {
  status?: AccountStatus;
  search?: string;
}

/** Newest first: served by `accounts_created` and, for one status, `accounts_status_created`. */
const ACCOUNT_LIST: DeskQueue = {
  table: 'accounts',
  alias: 'a',
  sort: [
    ['created_at', 'DESC'],
    ['id', 'DESC'],
  ],
};

/**
 * Staff's account list (D34): the page's ids and the total (together in one statement for a search, which finds its
 * hits through the trigram indexes on the name and the e-mail), then the page's accounts, in the page's order.
 */
export function readStaffAccountPage(
  em: EntityManager,
  filter: StaffAccountFilter,
  request: PageRequest,
): Promise<Page<Account>> {
  const query = new QueueFilter(ACCOUNT_LIST);
  if (filter.status) query.where('a.status = ?', filter.status);
  if (filter.search) {
    const contains = containsPattern(filter.search);
    query.search('(a.name ILIKE ? OR a.email ILIKE ?)', contains, contains);
  }
  return readQueuePage(em, query.statements(), request, async (ids) => {
    const byId = new Map((await em.find(Account, { id: { $in: ids } })).map((account) => [account.id, account]));
    return ids.map((id) => byId.get(id)!);
  });
}
