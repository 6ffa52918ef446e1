import type { Request } from 'express';
import { lastPage, type Page } from '../../domain/shared/pagination';

/**
 * D3's length-aware list envelope: `data`, `links` (first, last, prev, next) and `meta` (current_page, from,
 * last_page, path, per_page, to, total). Links keep the request's other query parameters (filters, per_page).
 */
export function listEnvelope<T>(req: Request, appUrl: string, page: Page<T>, serialize: (item: T) => unknown) {
  const path = `${appUrl}${req.baseUrl}${req.path}`;
  const last = lastPage(page);
  const link = (number: number) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(req.query))
      if (typeof value === 'string' && key !== 'page') query.set(key, value);
    query.set('page', String(number));
    return `${path}?${query.toString()}`;
  };
  const from = page.items.length ? (page.page - 1) * page.perPage + 1 : null;
  return {
    data: page.items.map(serialize),
    links: {
      first: link(1),
      last: link(last),
      prev: page.page > 1 ? link(Math.min(page.page - 1, last)) : null,
      next: page.page < last ? link(page.page + 1) : null,
    },
    meta: {
      current_page: page.page,
      from,
      last_page: last,
      path,
      per_page: page.perPage,
      to: from === null ? null : from + page.items.length - 1,
      total: page.total,
    },
  };
}
