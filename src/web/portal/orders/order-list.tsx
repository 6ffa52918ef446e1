import { useClient, type AnyVariables, type Client, type TypedDocumentNode } from 'urql';
import { graphql } from '../../shared/gql';
import { Link } from '../../shared/router';
import { money, statusLabel, when } from '../format';
import { usePolledList } from '../poll';

const PortalOrders = graphql(`
  query PortalOrders($updatedSince: DateTime, $perPage: Int) {
    orders(updatedSince: $updatedSince, perPage: $perPage) {
      items {
        id
        number
        status
        reference
        sourceLanguage
        targetLanguage
        serviceType
        totalCents
        currency
        dueAt
        updatedAt
      }
    }
  }
`);

const PortalBookings = graphql(`
  query PortalBookings($updatedSince: DateTime, $perPage: Int) {
    interpretationBookings(updatedSince: $updatedSince, perPage: $perPage) {
      items {
        id
        number
        status
        reference
        sourceLanguage
        targetLanguage
        scheduledAt
        durationHours
        updatedAt
      }
    }
  }
`);

/** One page of a list query's items, fresh from the service; its error as a thrown message. */
async function listOf<T, V extends AnyVariables, I>(
  client: Client,
  document: TypedDocumentNode<T, V>,
  variables: V,
  pick: (data: T) => I[],
): Promise<I[]> {
  const answer = await client.query(document, variables, { requestPolicy: 'network-only' }).toPromise();
  if (answer.error) throw new Error(answer.error.message.replace(/^\[\w+\] /, ''));
  return pick(answer.data!);
}

/** The account's orders and bookings, newest first, their statuses kept current by polling (docs/decisions.md D35). */
export function OrderList() {
  const client = useClient();
  const orders = usePolledList(
    () => listOf(client, PortalOrders, { perPage: 25 }, (d) => d.orders.items),
    (since) => listOf(client, PortalOrders, { updatedSince: since, perPage: 100 }, (d) => d.orders.items),
  );
  const bookings = usePolledList(
    () => listOf(client, PortalBookings, { perPage: 25 }, (d) => d.interpretationBookings.items),
    (since) =>
      listOf(client, PortalBookings, { updatedSince: since, perPage: 100 }, (d) => d.interpretationBookings.items),
  );
  return (
    <>
      <h1>Orders</h1>
      <ListState error={orders.error} loaded={orders.items !== undefined} />
      {orders.items && orders.items.length === 0 && <p>No orders yet.</p>}
      {orders.items && orders.items.length > 0 && (
        <table className="cards" aria-label="Orders">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Status</th>
              <th scope="col">Languages</th>
              <th scope="col">Reference</th>
              <th scope="col">Total</th>
              <th scope="col">Due</th>
            </tr>
          </thead>
          <tbody>
            {orders.items.map((order) => (
              <tr key={order.id}>
                <td data-label="Order">
                  <Link href={`/portal/orders/${order.id}`}>{order.number}</Link>
                </td>
                <td data-label="Status">
                  <span className="badge">{statusLabel(order.status)}</span>
                </td>
                <td data-label="Languages">
                  {order.sourceLanguage} → {order.targetLanguage}, {order.serviceType.toLowerCase()}
                </td>
                <td data-label="Reference">{order.reference ?? '—'}</td>
                <td data-label="Total">{money(order.totalCents, order.currency)}</td>
                <td data-label="Due">{when(order.dueAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Interpreter bookings</h2>
      <ListState error={bookings.error} loaded={bookings.items !== undefined} />
      {bookings.items && bookings.items.length === 0 && <p>No interpreter bookings yet.</p>}
      {bookings.items && bookings.items.length > 0 && (
        <table className="cards" aria-label="Interpreter bookings">
          <thead>
            <tr>
              <th scope="col">Booking</th>
              <th scope="col">Status</th>
              <th scope="col">Languages</th>
              <th scope="col">Reference</th>
              <th scope="col">When (your time)</th>
            </tr>
          </thead>
          <tbody>
            {bookings.items.map((booking) => (
              <tr key={booking.id}>
                <td data-label="Booking">
                  <Link href={`/portal/bookings/${booking.id}`}>{booking.number}</Link>
                </td>
                <td data-label="Status">
                  <span className="badge">{statusLabel(booking.status)}</span>
                </td>
                <td data-label="Languages">
                  {booking.sourceLanguage} → {booking.targetLanguage}
                </td>
                <td data-label="Reference">{booking.reference ?? '—'}</td>
                <td data-label="When (your time)">
                  {when(booking.scheduledAt)}, {booking.durationHours} h
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function ListState({ error, loaded }: { error?: string; loaded: boolean }) {
  if (error) return <p role="alert">{error}</p>;
  return loaded ? null : <p role="status">Loading…</p>;
}
