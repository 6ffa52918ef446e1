import { useEffect, useRef, useState } from 'react';

/** How often a screen asks for what changed; a hidden tab does not ask. */
export const POLL_MS = 4000;

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
