import { useEffect } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../shared/gql';
import { Layout, Pending, type NavItem } from '../shared/layout';
import { navigate, useLocation } from '../shared/router';
import { BookingPage } from './bookings/booking-page';
import { RequestInterpreter } from './bookings/request-interpreter';
import { Invoices } from './billing/invoices';
import { isAdmin, mayAct, MemberContext, onTerms, type Me } from './member-context';
import { NewOrder } from './ordering/new-order';
import { OrderList } from './orders/order-list';
import { isOrderNumber, OrderByNumber } from './orders/order-by-number';
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
      billingTerms
      purchaseOrderRequired
      retentionDays
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
  if (mayAct(member))
    nav.push(
      { href: `${BASE}/new`, label: 'Order a translation' },
      { href: `${BASE}/interpreter`, label: 'Request an interpreter' },
    );
  if (onTerms(member)) nav.push({ href: `${BASE}/invoices`, label: 'Invoices' });
  if (isAdmin(member)) nav.push({ href: `${BASE}/people`, label: 'People and settings' });
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

/** The checkout sends the payer back to `/portal/paid?payment=...&order_id=...` (or `booking_id`): on to it. */
function useCheckoutReturn(path: string, query: URLSearchParams) {
  const back = path === `${BASE}/paid`;
  const target = query.get('order_id')
    ? `${BASE}/orders/${query.get('order_id')}`
    : query.get('booking_id')
      ? `${BASE}/bookings/${query.get('booking_id')}`
      : undefined;
  const payment = encodeURIComponent(query.get('payment') ?? '');
  useEffect(() => {
    if (back && target) navigate(`${target}?payment=${payment}`, { replace: true });
  }, [back, target, payment]);
}

function Screen({ path, me }: { path: string; me: Me }) {
  if (path === '' || path === '/' || path === '/orders') return <OrderList />;
  const order = /^\/orders\/([\w-]+)$/.exec(path);
  if (order) return isOrderNumber(order[1]) ? <OrderByNumber number={order[1]} /> : <OrderPage id={order[1]} />;
  const booking = /^\/bookings\/([\w-]+)$/.exec(path);
  if (booking) return <BookingPage id={booking[1]} />;
  if (path === '/new' && mayAct(me)) return <NewOrder />;
  if (path === '/interpreter' && mayAct(me)) return <RequestInterpreter />;
  if (path === '/people' && isAdmin(me)) return <People />;
  if (path === '/invoices' && onTerms(me)) return <Invoices />;
  if (path === '/paid') return null;
  return (
    <>
      <h1>Not found</h1>
      <p>There is no such page in the portal.</p>
    </>
  );
}
