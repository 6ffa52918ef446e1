import { Link, withQuery, type Location } from './router';

/** "Previous page" and "Next page" links over a list paged by the service, the page kept in the address. */
export function Pager({ location, page, lastPage }: { location: Location; page: number; lastPage: number }) {
  const to = (n: number) => withQuery(location.path, location.query, { page: n > 1 ? String(n) : undefined });
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? <Link href={to(page - 1)}>Previous page</Link> : null}
      <span>
        Page {page} of {Math.max(lastPage, 1)}
      </span>
      {page < lastPage ? <Link href={to(page + 1)}>Next page</Link> : null}
    </nav>
  );
}
