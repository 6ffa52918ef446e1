import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/**
 * The smallest router an application needs: the address bar is the state (a screen and its filters are a link a
 * person can reload, share or open in a new tab), `navigate` pushes a new address and every `useLocation` re-renders.
 */
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
window.addEventListener('popstate', notify);

export function navigate(to: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
  if (!replace) window.scrollTo(0, 0);
}

export interface Location {
  path: string;
  query: URLSearchParams;
}

export function useLocation(): Location {
  const [, rerender] = useState(0);
  useEffect(() => {
    const listener = () => rerender((n) => n + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** A link that moves inside the application without a page load (a modified click still opens a new tab). */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={follow} {...rest} />;
}

/** A copy of the current query with some parameters set (or removed when empty), as a link's address. */
export function withQuery(path: string, query: URLSearchParams, changes: Record<string, string | undefined>): string {
  const next = new URLSearchParams(query);
  for (const [name, value] of Object.entries(changes)) {
    if (value) next.set(name, value);
    else next.delete(name);
  }
  const search = next.toString();
  return search ? `${path}?${search}` : path;
}

/** Moves to `path` with a filter form's values as its query: the non-empty text fields, and the ticked boxes as 1. */
export function navigateToFilters(path: string, form: FormData, fields: string[], flags: string[] = []): void {
  const next = new URLSearchParams();
  for (const name of fields) {
    const value = form.get(name);
    if (typeof value === 'string' && value.trim()) next.set(name, value.trim());
  }
  for (const name of flags) if (form.has(name)) next.set(name, '1');
  const search = next.toString();
  navigate(search ? `${path}?${search}` : path);
}
