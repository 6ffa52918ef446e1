import type { EntityManager, EntityName, FilterQuery, FindOptions } from '@mikro-orm/core';
import { integer } from './command-fields';

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;
/** Far past any account's last page, yet a bound on how far an OFFSET may walk. */
export const MAX_PAGE = 100_000;

/** `page` and `per_page` of a list's command (D3). */
export const pageFields = {
  page: integer({ min: 1, max: MAX_PAGE }),
  perPage: integer({ min: 1, max: MAX_PER_PAGE }),
};

/** The page a list command asks for, defaults filled in. */
export const pageRequest = (command: { page?: number; perPage?: number }): PageRequest => ({
  page: command.page ?? 1,
  perPage: command.perPage ?? DEFAULT_PER_PAGE,
});

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface Page<T> extends PageRequest {
  items: T[];
  total: number;
}

/** A page that knows the version of its answer (D23): its ETag, without serializing it. */
export interface VersionedPage<T> extends Page<T> {
  version: string;
}

/** One count and one page query, both in the database. */
export async function paginate<T extends object, P extends string = never>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  request: PageRequest,
  options: Pick<FindOptions<T, P>, 'orderBy' | 'populate' | 'strategy'>,
): Promise<Page<T>> {
  const [items, total] = await em.findAndCount(entity, where, {
    ...options,
    limit: request.perPage,
    offset: (request.page - 1) * request.perPage,
  });
  return { items: items, total, ...request };
}

export const lastPage = (page: Pick<Page<unknown>, 'total' | 'perPage'>): number =>
  Math.max(1, Math.ceil(page.total / page.perPage));
