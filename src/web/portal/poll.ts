import { useEffect, useRef, useState } from 'react';
import { POLL_MS } from './poll-rate';

/** Download links last 5 minutes: a page shown this long is read again whole, so its links stay fresh. */
const LINKS_FRESH_MS = 4 * 60_000;

/**
 * A record's page kept current within the member's budget (D24, D27): every few seconds it asks only for the
 * record's `mark` (what changes when the page would, as its `updatedAt` and the count of its messages), a query of a
 * few units, and reads the page again whole (`refresh`) when the mark moved, or when its download links are about to
 * expire. A mark that fails to come (offline, the budget spent) leaves the page as it is, to try again.
 */
export function useRefreshOnChange(mark: () => Promise<string | undefined>, refresh: () => void): void {
  const current = useRef({ mark, refresh });
  current.current = { mark, refresh };
  useEffect(() => {
    let stopped = false;
    let seen: string | undefined;
    let readAt = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      if (!document.hidden) {
        const now = await current.current.mark().catch(() => undefined);
        const moved = now !== undefined && seen !== undefined && now !== seen;
        if (now !== undefined) seen = now;
        if (!stopped && (moved || Date.now() - readAt > LINKS_FRESH_MS)) {
          readAt = Date.now();
          current.current.refresh();
        }
      }
      if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
    };
    timer = setTimeout(() => void poll(), 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
}

export interface Changed {
  id: string;
  updatedAt: string;
}

/** A list as a screen shows it: its rows so far, the last refusal, and `more` while pages are left to show. */
export interface PolledList<T> {
  items?: T[];
  error?: string;
  more?: () => void;
}

/**
 * A list kept current without reloading: its first page once (and the next ones on `more`), then every few seconds
 * only what changed since the newest `updatedAt` seen (`updatedSince` answers changes at or after it, oldest first),
 * merged in by id. A change to an item on a later page moves it to the top, as the service's newest-first order
 * would. A poll that fails says so above the rows it leaves as they were.
 */
export function usePolledList<T extends Changed>(
  pageOf: (page: number) => Promise<{ items: T[]; pageInfo: { lastPage: number } }>,
  changesSince: (since: string) => Promise<T[]>,
): PolledList<T> {
  const [items, setItems] = useState<T[]>();
  const [error, setError] = useState<string>();
  const [pages, setPages] = useState({ read: 0, last: 1 });
  const load = useRef({ pageOf, changesSince });
  const newest = useRef('');
  const seen = (list: T[]) =>
    list.forEach((item) => (newest.current = item.updatedAt > newest.current ? item.updatedAt : newest.current));
  const readPage = (page: number) =>
    load.current
      .pageOf(page)
      .then(({ items: read, pageInfo }) => {
        seen(read);
        if (!newest.current) newest.current = new Date().toISOString();
        setItems((list) => [...(list ?? []), ...read.filter((item) => !list?.some((kept) => kept.id === item.id))]);
        setPages({ read: page, last: pageInfo.lastPage });
        setError(undefined);
      })
      .catch((failure: Error) => setError(failure.message));
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      if (!document.hidden && newest.current) {
        try {
          const changed = await load.current.changesSince(newest.current);
          seen(changed);
          if (!stopped && changed.length > 0) setItems((list) => merge(list ?? [], changed));
          setError(undefined);
        } catch (failure) {
          setError((failure as Error).message);
        }
      }
      if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
    };
    void readPage(1).finally(() => void (stopped || (timer = setTimeout(() => void poll(), POLL_MS))));
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  return {
    items,
    error,
    more: items && pages.read < pages.last ? () => void readPage(pages.read + 1) : undefined,
  };
}

function merge<T extends Changed>(list: T[], changed: T[]): T[] {
  const ids = new Set(changed.map((item) => item.id));
  return [...[...changed].reverse(), ...list.filter((item) => !ids.has(item.id))];
}
