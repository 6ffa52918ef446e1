import { useClient, type AnyVariables, type Client, type TypedDocumentNode } from 'urql';
import { CardTable, type Column } from '../../shared/filtered-list';
import { graphql } from '../../shared/gql';
import type { PortalBookingRowFragment, PortalOrderRowFragment } from '../../shared/gql/graphql';
import { Link } from '../../shared/router';
import { money, statusLabel, when } from '../format';
import { usePolledList, type PolledList } from '../poll';
import { CHANGES_PER_POLL } from '../poll-rate';

// The rows of a list, read page by page and then as changes (`updatedSince`), one selection for both.
graphql(`
  fragment PortalOrderRow on Order {
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
`);

graphql(`
  fragment PortalBookingRow on InterpretationBooking {
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
`);

const PortalOrderPage = graphql(`
  query PortalOrderPage($page: Int, $perPage: Int) {
    orders(page: $page, perPage: $perPage) {
      items {
        ...PortalOrderRow
      }
      pageInfo {
        lastPage
      }
    }
  }
`);

const PortalOrderChanges = graphql(`
  query PortalOrderChanges($updatedSince: DateTime, $perPage: Int) {
    orders(updatedSince: $updatedSince, perPage: $perPage) {
      items {
        ...PortalOrderRow
      }
    }
  }
`);

const PortalBookingPage = graphql(`
  query PortalBookingPage($page: Int, $perPage: Int) {
    interpretationBookings(page: $page, perPage: $perPage) {
      items {
        ...PortalBookingRow
      }
      pageInfo {
        lastPage
      }
    }
  }
`);

const PortalBookingChanges = graphql(`
  query PortalBookingChanges($updatedSince: DateTime, $perPage: Int) {
    interpretationBookings(updatedSince: $updatedSince, perPage: $perPage) {
      items {
        ...PortalBookingRow
      }
    }
  }
`);

/** Rows of a list a screen shows at a time, and asks for again with "Show more". */
const PER_PAGE = 25;

const ORDER_COLUMNS: Column<PortalOrderRowFragment>[] = [
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

const BOOKING_COLUMNS: Column<PortalBookingRowFragment>[] = [
  { label: 'Booking', cell: (booking) => <Link href={`/portal/bookings/${booking.id}`}>{booking.number}</Link> },
  { label: 'Status', cell: (booking) => <span className="badge">{statusLabel(booking.status)}</span> },
  { label: 'Languages', cell: (booking) => `${booking.sourceLanguage} → ${booking.targetLanguage}` },
  { label: 'Reference', cell: (booking) => booking.reference ?? '—' },
  { label: 'When', cell: (booking) => `${booking.scheduledAtText}, ${booking.durationHours} h` },
];

/** A list query's answer, fresh from the service; its error as a thrown message. */
async function read<T, V extends AnyVariables>(client: Client, document: TypedDocumentNode<T, V>, variables: V) {
  const answer = await client.query(document, variables, { requestPolicy: 'network-only' }).toPromise();
  if (answer.error) throw new Error(answer.error.message.replace(/^\[\w+\] /, ''));
  return answer.data!;
}

/** The account's orders and bookings, newest first, their statuses kept current by polling (docs/decisions.md D35). */
export function OrderList() {
  const client = useClient();
  const orders = usePolledList(
    async (page) => (await read(client, PortalOrderPage, { page, perPage: PER_PAGE })).orders,
    async (since) =>
      (await read(client, PortalOrderChanges, { updatedSince: since, perPage: CHANGES_PER_POLL })).orders.items,
  );
  const bookings = usePolledList(
    async (page) => (await read(client, PortalBookingPage, { page, perPage: PER_PAGE })).interpretationBookings,
    async (since) =>
      (await read(client, PortalBookingChanges, { updatedSince: since, perPage: CHANGES_PER_POLL }))
        .interpretationBookings.items,
  );
  return (
    <>
      <h1>Orders</h1>
      <PolledRows list={orders} columns={ORDER_COLUMNS} label="Orders" none="No orders yet." more="Show more orders" />
      <h2>Interpreter bookings</h2>
      <PolledRows
        list={bookings}
        columns={BOOKING_COLUMNS}
        label="Interpreter bookings"
        none="No interpreter bookings yet."
        more="Show more bookings"
      />
    </>
  );
}

/** A list as its hook keeps it: loading, refused, empty, or its rows and "Show more" while pages are left. */
function PolledRows<T extends { id: string }>({
  list,
  columns,
  label,
  none,
  more,
}: {
  list: PolledList<T>;
  columns: Column<T>[];
  label: string;
  none: string;
  more: string;
}) {
  const refusal = list.error && <p role="alert">{list.error}</p>;
  if (!list.items) return refusal || <p role="status">Loading…</p>;
  if (list.items.length === 0) return refusal || <p>{none}</p>;
  return (
    <>
      {refusal}
      <CardTable items={list.items} columns={columns} label={label} />
      {list.more && (
        <button type="button" className="secondary" onClick={list.more}>
          {more}
        </button>
      )}
    </>
  );
}
