import { useQuery } from 'urql';
import { graphql } from '../shared/gql';
import { Layout, Pending, type NavItem } from '../shared/layout';
import { useLocation } from '../shared/router';
import { OrderPage } from './orders/order-page';
import { OrderQueue } from './orders/order-queue';
import { StaffContext } from './staff-context';

const StaffMe = graphql(`
  query StaffMe {
    staffMe {
      id
      name
      email
      role
    }
  }
`);

export const BASE = '/console';

/** The signed-in console: who is at the desk decides the navigation (a role sees only what it may do, D28). */
export function Console({ signOut }: { signOut: () => void }) {
  const [{ data, fetching, error }] = useQuery({ query: StaffMe, requestPolicy: 'cache-first' });
  const { path } = useLocation();
  const me = data?.staffMe;
  if (!me) return <Pending fetching={fetching} error={error} />;
  const nav: NavItem[] = [{ href: `${BASE}/orders`, label: 'Orders' }];
  return (
    <StaffContext.Provider value={me}>
      <Layout title="Staff console" nav={nav} user={`${me.name} (${me.role.toLowerCase()})`} onSignOut={signOut}>
        <Screen path={path.slice(BASE.length)} />
      </Layout>
    </StaffContext.Provider>
  );
}

function Screen({ path }: { path: string }) {
  if (path === '' || path === '/' || path === '/orders') return <OrderQueue />;
  const order = /^\/orders\/([^/]+)$/.exec(path);
  if (order) return <OrderPage number={decodeURIComponent(order[1])} />;
  return (
    <>
      <h1>Not found</h1>
      <p>There is no such screen in the console.</p>
    </>
  );
}
