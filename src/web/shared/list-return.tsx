import { useEffect } from 'react';
import { Link, type Location } from './router';

/**
 * The address a list was last shown at, its filters and page with it, kept in the tab (sessionStorage, so a reload of
 * the screen opened from it still finds it): "Back to orders" returns to the list as the person left it, where a link
 * to the bare list dropped every filter they had set. Kept under the application's name (`console.list
 * /console/orders`), so signing out forgets it with the session (`SessionStore.clear`).
 */
const key = (path: string) => `${path.split('/')[1]}.list ${path}`;

/** Called by a list: remembers where it is shown now. */
export function useListAddress(location: Location): void {
  const search = location.query.toString();
  useEffect(() => {
    sessionStorage.setItem(key(location.path), search ? `${location.path}?${search}` : location.path);
  }, [location.path, search]);
}

/** The link from one item's screen back to its list (`path`), as it was last shown in this tab. */
export function BackToList({ path, label }: { path: string; label: string }) {
  return (
    <p>
      <Link href={sessionStorage.getItem(key(path)) ?? path}>{label}</Link>
    </p>
  );
}
