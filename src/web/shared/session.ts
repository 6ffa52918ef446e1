/**
 * The session token of one browser application, kept in the tab's sessionStorage (docs/decisions.md D34): it dies
 * with the tab, is never sent by the browser on its own (no cookie, so no cross-site request can use it), and other
 * tabs and a later visit never see it (no localStorage).
 */
export interface SessionStore {
  token: () => string | null;
  save: (token: string) => void;
  /** Ends the session in the tab: its token, and whatever else the application kept there under its name. */
  clear: () => void;
}

export function sessionStore(app: string): SessionStore {
  const key = `${app}.session`;
  return {
    token: () => sessionStorage.getItem(key),
    save: (token) => sessionStorage.setItem(key, token),
    clear: () =>
      Object.keys(sessionStorage)
        .filter((name) => name.startsWith(`${app}.`))
        .forEach((name) => sessionStorage.removeItem(name)),
  };
}
