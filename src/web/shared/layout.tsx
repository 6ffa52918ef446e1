import type { ReactNode } from 'react';
import { ActionScope } from './action';
import { Link, useLocation } from './router';

export interface NavItem {
  href: string;
  label: string;
}

/**
 * The frame of every screen: a skip link to the content, the application's name, its navigation (the current
 * screen marked for assistive technology), who is signed in with "Sign out", and the screen itself as `main`.
 */
export function Layout({
  title,
  nav,
  user,
  onSignOut,
  children,
}: {
  title: string;
  nav: NavItem[];
  user: string;
  onSignOut: () => void;
  children: ReactNode;
}) {
  const { path } = useLocation();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">{title}</span>
        <nav aria-label="Main">
          <ul>
            {nav.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={path.startsWith(item.href) ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span className="user">
          <span>{user}</span>
          <button type="button" className="link" onClick={onSignOut}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        {/* A screen's success lines start afresh on every screen: one at a time, the latest move's. */}
        <ActionScope key={path}>{children}</ActionScope>
      </main>
    </>
  );
}

/** A loading line, an error's message, or nothing: what a screen shows while its query is not answered. */
export function Pending({ fetching, error }: { fetching: boolean; error?: { message: string } }) {
  if (error) return <p role="alert">{error.message.replace(/^\[\w+\] /, '')}</p>;
  return fetching ? <p role="status">Loading…</p> : null;
}
