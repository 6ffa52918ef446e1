import { useEffect } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../shared/gql';
import { Layout, Pending, type NavItem } from '../shared/layout';
import { navigate, useLocation } from '../shared/router';
import { isAdmin, mayAct, MemberContext, type Me } from './member-context';
import { NewOrder } from './ordering/new-order';
import { OrderList } from './orders/order-list';
import { OrderPage } from './orders/order-page';
import { People } from './people/people';

const PortalMe = graphql(`
  query PortalMe {
    me {
      id
      name
      email
      apiKeyLast4
      apiKeyIssuedAt
      viewer {
        id
        name
        role
      }
    }
  }
`);

export const BASE = '/portal';

/** The signed-in portal: the member's role decides the navigation, so nobody is shown a button they may not use. */
export function Portal({ signOut }: { signOut: () => void }) {
  const [{ data, fetching, error }] = useQuery({ query: PortalMe, requestPolicy: 'cache-first' });
  const { path, query } = useLocation();
  const me = data?.me;
  useCheckoutReturn(path, query);
  if (!me?.viewer) return <Pending fetching={fetching} error={error} />;
  const member = me as Me;
  const nav: NavItem[] = [{ href: `${BASE}/orders`, label: 'Orders' }];
  if (mayAct(member)) nav.push({ href: `${BASE}/new`, label: 'Order a translation' });
  if (isAdmin(member)) nav.push({ href: `${BASE}/people`, label: 'People and API key' });
  return (
    <MemberContext.Provider value={member}>
      <Layout
        title={`Client portal · ${me.name}`}
        nav={nav}
        user={`${me.viewer.name} (${me.viewer.role.toLowerCase()})`}
        onSignOut={signOut}
      >
        <Screen path={path.slice(BASE.length)} me={member} />
      </Layout>
    </MemberContext.Provider>
  );
}

/** The checkout sends the payer back to `/portal/paid?payment=...&order_id=...`: on to that order. */
function useCheckoutReturn(path: string, query: URLSearchParams) {
  const orderId = path === `${BASE}/paid` ? query.get('order_id') : null;
  useEffect(() => {
    if (orderId) navigate(`${BASE}/orders/${orderId}?payment=${query.get('payment') ?? ''}`, { replace: true });
  }, [orderId, query]);
}

function Screen({ path, me }: { path: string; me: Me }) {
  if (path === '' || path === '/' || path === '/orders') return <OrderList />;
  const order = /^\/orders\/([\w-]+)$/.exec(path);
  if (order) return <OrderPage id={order[1]} />;
  if (path === '/new' && mayAct(me)) return <NewOrder />;
  if (path === '/people' && isAdmin(me)) return <People />;
  if (path === '/paid') return null;
  return (
    <>
      <h1>Not found</h1>
      <p>There is no such page in the portal.</p>
    </>
  );
}
