/**
 * The session token of one browser application, kept in the tab's sessionStorage (docs/decisions.md D34): it dies
 * with the tab, is never sent by the browser on its own (no cookie, so no cross-site request can use it), and other
 * tabs and a later visit never see it (no localStorage).
 */
export interface SessionStore {
  token: () => string | null;
  save: (token: string) => void;
  clear: () => void;
}

export function sessionStore(app: string): SessionStore {
  const key = `${app}.session`;
  return {
    token: () => sessionStorage.getItem(key),
    save: (token) => sessionStorage.setItem(key, token),
    clear: () => sessionStorage.removeItem(key),
  };
}
