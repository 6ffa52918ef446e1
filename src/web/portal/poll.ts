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

/**
 * A list kept current without reloading: the first page once, then every few seconds only what changed since the
 * newest `updatedAt` seen (`updatedSince` answers changes at or after it, oldest first), merged in by id. A change
 * to an item on a later page moves it to the top, as the service's newest-first order would.
 */
export function usePolledList<T extends Changed>(
  firstPage: () => Promise<T[]>,
  changesSince: (since: string) => Promise<T[]>,
): { items?: T[]; error?: string } {
  const [items, setItems] = useState<T[]>();
  const [error, setError] = useState<string>();
  const load = useRef({ firstPage, changesSince });
  useEffect(() => {
    let stopped = false;
    let newest = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const seen = (list: T[]) => list.forEach((item) => (newest = item.updatedAt > newest ? item.updatedAt : newest));
    const poll = async () => {
      if (!document.hidden && newest) {
        try {
          const changed = await load.current.changesSince(newest);
          seen(changed);
          if (!stopped && changed.length > 0) setItems((list) => merge(list ?? [], changed));
          setError(undefined);
        } catch (failure) {
          setError((failure as Error).message);
        }
      }
      if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
    };
    load.current
      .firstPage()
      .then((list) => {
        seen(list);
        if (!newest) newest = new Date().toISOString();
        if (!stopped) setItems(list);
      })
      .catch((failure: Error) => setError(failure.message))
      .finally(() => void (stopped || (timer = setTimeout(() => void poll(), POLL_MS))));
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  return { items, error };
}

function merge<T extends Changed>(list: T[], changed: T[]): T[] {
  const ids = new Set(changed.map((item) => item.id));
  return [...[...changed].reverse(), ...list.filter((item) => !ids.has(item.id))];
}
