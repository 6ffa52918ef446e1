import { StrictMode, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { graphqlClient } from './graphql-client';
import { graphql } from './gql';
import { sessionStore } from './session';
import { SignIn, type SignInProps } from './sign-in';
import './styles.css';

const SignOut = graphql(`
  mutation SignOut {
    signOut
  }
`);

export interface WebAppOptions extends Pick<SignInProps, 'refuse'> {
  /** The name the session is kept under in the tab (`console`, `portal`). */
  app: string;
  title: string;
  /** The signed-in application; `signOut` ends the session on the service and in the tab. */
  render: (signOut: () => void) => ReactNode;
}

/**
 * Mounts an application into the page's `#root`: the sign-in screen until the tab holds a session, then the
 * application. Each session gets a GraphQL client of its own, so nothing one person saw is cached for the next.
 */
export function startWebApp(options: WebAppOptions): void {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <WebApp {...options} />
    </StrictMode>,
  );
}

function WebApp({ app, title, refuse, render }: WebAppOptions) {
  const session = useMemo(() => sessionStore(app), [app]);
  const [token, setToken] = useState(session.token());
  const ended = useCallback(() => {
    session.clear();
    setToken(null);
  }, [session]);
  // A page the browser kept when it was left (its back-forward cache) comes back as it was: if the tab's session ended
  // since (signed out on another page of the tab), it must not show what the session saw.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => void (event.persisted && setToken(session.token()));
    addEventListener('pageshow', restored);
    return () => removeEventListener('pageshow', restored);
  }, [session]);
  // A new session, a new client: nothing cached for one person is shown to the next.
  const client = useMemo(() => graphqlClient(session, ended), [session, ended, token]);
  const endSession = (bearer: string) =>
    void client.mutation(SignOut, {}, { fetchOptions: { headers: { Authorization: `Bearer ${bearer}` } } }).toPromise();
  const signOut = () => {
    void client.mutation(SignOut, {}).toPromise().finally(ended);
  };
  const signedIn = (bearer: string) => {
    session.save(bearer);
    setToken(bearer);
  };
  return (
    <Provider value={client}>
      {token ? render(signOut) : <SignIn title={title} refuse={refuse} onSignedIn={signedIn} end={endSession} />}
    </Provider>
  );
}
