import { useClient, type AnyVariables, type Client, type TypedDocumentNode } from 'urql';
import { CardTable, type Column } from '../../shared/filtered-list';
import { graphql } from '../../shared/gql';
import type { PortalBookingsQuery, PortalOrdersQuery } from '../../shared/gql/graphql';
import { Link } from '../../shared/router';
import { money, statusLabel, when } from '../format';
import { usePolledList } from '../poll';
import { CHANGES_PER_POLL } from '../poll-rate';

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
        scheduledAtText
        durationHours
        updatedAt
      }
    }
  }
`);

const ORDER_COLUMNS: Column<PortalOrdersQuery['orders']['items'][number]>[] = [
  { label: 'Order', cell: (order) => <Link href={`/portal/orders/${order.id}`}>{order.number}</Link> },
  { label: 'Status', cell: (order) => <span className="badge">{statusLabel(order.status)}</span> },
  {
    label: 'Languages',
    cell: (order) => `${order.sourceLanguage} → ${order.targetLanguage}, ${order.serviceType.toLowerCase()}`,
  },
  { label: 'Reference', cell: (order) => order.reference ?? '—' },
  { label: 'Total', cell: (order) => money(order.totalCents, order.currency) },
  { label: 'Due', cell: (order) => when(order.dueAt) },
];

const BOOKING_COLUMNS: Column<PortalBookingsQuery['interpretationBookings']['items'][number]>[] = [
  { label: 'Booking', cell: (booking) => <Link href={`/portal/bookings/${booking.id}`}>{booking.number}</Link> },
  { label: 'Status', cell: (booking) => <span className="badge">{statusLabel(booking.status)}</span> },
  { label: 'Languages', cell: (booking) => `${booking.sourceLanguage} → ${booking.targetLanguage}` },
  { label: 'Reference', cell: (booking) => booking.reference ?? '—' },
  { label: 'When', cell: (booking) => `${booking.scheduledAtText}, ${booking.durationHours} h` },
];

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
    (since) => listOf(client, PortalOrders, { updatedSince: since, perPage: CHANGES_PER_POLL }, (d) => d.orders.items),
  );
  const bookings = usePolledList(
    () => listOf(client, PortalBookings, { perPage: 25 }, (d) => d.interpretationBookings.items),
    (since) =>
      listOf(
        client,
        PortalBookings,
        { updatedSince: since, perPage: CHANGES_PER_POLL },
        (d) => d.interpretationBookings.items,
      ),
  );
  return (
    <>
      <h1>Orders</h1>
      <ListState error={orders.error} loaded={orders.items !== undefined} />
      {orders.items && orders.items.length === 0 && <p>No orders yet.</p>}
      {orders.items && orders.items.length > 0 && (
        <CardTable items={orders.items} columns={ORDER_COLUMNS} label="Orders" />
      )}
      <h2>Interpreter bookings</h2>
      <ListState error={bookings.error} loaded={bookings.items !== undefined} />
      {bookings.items && bookings.items.length === 0 && <p>No interpreter bookings yet.</p>}
      {bookings.items && bookings.items.length > 0 && (
        <CardTable items={bookings.items} columns={BOOKING_COLUMNS} label="Interpreter bookings" />
      )}
    </>
  );
}

function ListState({ error, loaded }: { error?: string; loaded: boolean }) {
  if (error) return <p role="alert">{error}</p>;
  return loaded ? null : <p role="status">Loading…</p>;
}
