import { useQuery } from 'urql';
import { graphql } from '../shared/gql';
import { Layout, Pending, type NavItem } from '../shared/layout';
import { useLocation } from '../shared/router';
import { AccountListPage } from './accounts/account-list';
import { BookingPage } from './bookings/booking-page';
import { BookingQueue } from './bookings/booking-queue';
import { InterpreterList } from './interpreters/interpreter-list';
import { InvoiceList } from './invoices/invoice-list';
import { OrderPage } from './orders/order-page';
import { OrderQueue } from './orders/order-queue';
import { StaffContext } from './staff-context';
import { OwnProfile } from './staff/own-profile';
import { StaffUsersPage } from './staff/staff-users';

const StaffMe = graphql(`
  query StaffMe {
    staffMe {
      id
      name
      email
      role
      credentials
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
  const desk = me.role !== 'TRANSLATOR';
  // A role sees only the screens it may use (D28): a translator works on the orders assigned to them.
  const nav: NavItem[] = [
    { href: `${BASE}/orders`, label: 'Orders' },
    ...(desk
      ? [
          { href: `${BASE}/bookings`, label: 'Bookings' },
          { href: `${BASE}/interpreters`, label: 'Interpreters' },
          { href: `${BASE}/accounts`, label: 'Accounts' },
          { href: `${BASE}/invoices`, label: 'Invoices' },
        ]
      : []),
    ...(me.role === 'ADMIN' ? [{ href: `${BASE}/staff`, label: 'Staff' }] : []),
    { href: `${BASE}/profile`, label: 'Your profile' },
  ];
  return (
    <StaffContext.Provider value={me}>
      <Layout title="Staff console" nav={nav} user={`${me.name} (${me.role.toLowerCase()})`} onSignOut={signOut}>
        <Screen path={path.slice(BASE.length)} desk={desk} admin={me.role === 'ADMIN'} />
      </Layout>
    </StaffContext.Provider>
  );
}

function Screen({ path, desk, admin }: { path: string; desk: boolean; admin: boolean }) {
  if (path === '' || path === '/' || path === '/orders') return <OrderQueue />;
  const order = /^\/orders\/([^/]+)$/.exec(path);
  if (order) return <OrderPage number={decodeURIComponent(order[1])} />;
  if (desk && path === '/bookings') return <BookingQueue />;
  const booking = /^\/bookings\/([^/]+)$/.exec(path);
  if (desk && booking) return <BookingPage number={decodeURIComponent(booking[1])} />;
  if (desk && path === '/interpreters') return <InterpreterList />;
  if (desk && path === '/accounts') return <AccountListPage />;
  if (desk && path === '/invoices') return <InvoiceList />;
  if (admin && path === '/staff') return <StaffUsersPage />;
  if (path === '/profile') return <OwnProfile />;
  return (
    <>
      <h1>Not found</h1>
      <p>There is no such screen in the console.</p>
    </>
  );
}
