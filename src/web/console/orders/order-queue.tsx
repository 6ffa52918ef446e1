import { useQuery } from 'urql';
import { formatDateTime, formatEnum } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { OrderStatus, StaffOrderQueueQuery } from '../../shared/gql/graphql';
import {
  CardTable,
  CheckFilter,
  FilteredList,
  type Column,
  pageOf,
  statusOf,
  SearchFilter,
  StatusFilter,
} from '../../shared/filtered-list';
import { Link, useLocation } from '../../shared/router';
import { useMe } from '../staff-context';

const StaffOrderQueue = graphql(`
  query StaffOrderQueue(
    $status: OrderStatus
    $overdue: Boolean
    $queue: StaffOrderQueue
    $assigneeId: ID
    $search: String
    $page: Int
    $perPage: Int
    $desk: Boolean!
  ) {
    staffOrders(
      status: $status
      overdue: $overdue
      queue: $queue
      assigneeId: $assigneeId
      search: $search
      page: $page
      perPage: $perPage
    ) {
      items {
        id
        number
        status
        serviceType
        reference
        dueAt
        sourceLanguage
        targetLanguage
        account @include(if: $desk) {
          name
        }
        assignee {
          name
        }
      }
      pageInfo {
        page
        lastPage
        total
      }
    }
  }
`);

export const ORDER_STATUSES: OrderStatus[] = [
  'PENDING_PAYMENT',
  'PROCESSING',
  'IN_REVIEW',
  'ON_HOLD',
  'COMPLETED',
  'CANCELLED',
];
const FINISHED: OrderStatus[] = ['COMPLETED', 'CANCELLED'];
const PER_PAGE = 25;

type QueuedOrder = StaffOrderQueueQuery['staffOrders']['items'][number];
const overdue = (order: QueuedOrder) =>
  order.dueAt && !FINISHED.includes(order.status) && new Date(order.dueAt).getTime() < Date.now();
const ACCOUNT_COLUMN: Column<QueuedOrder> = { label: 'Account', cell: (order) => order.account?.name };
const COLUMNS: Column<QueuedOrder>[] = [
  { label: 'Number', cell: (order) => <Link href={`/console/orders/${order.number}`}>{order.number}</Link> },
  {
    label: 'Status',
    cell: (order) => (
      <>
        <span className="badge">{formatEnum(order.status)}</span>{' '}
        {overdue(order) && <span className="badge bad">Overdue</span>}
      </>
    ),
  },
  ACCOUNT_COLUMN,
  { label: 'Reference', cell: (order) => order.reference ?? '—' },
  {
    label: 'Languages',
    cell: (order) => `${order.sourceLanguage} → ${order.targetLanguage} (${order.serviceType.toLowerCase()})`,
  },
  { label: 'Due', cell: (order) => formatDateTime(order.dueAt) },
  { label: 'Assignee', cell: (order) => order.assignee?.name ?? '—' },
];

/**
 * The order queue, soonest due first: by status, overdue, waiting for a translator, assigned to me, or a search by
 * number, reference or account name. The filters are the address's query, so a filtered queue is a link; the
 * service pages the list in the database.
 */
export function OrderQueue() {
  const location = useLocation();
  const me = useMe();
  const { query } = location;
  const [{ data, fetching, error }] = useQuery({
    query: StaffOrderQueue,
    variables: {
      status: statusOf(location, ORDER_STATUSES),
      overdue: query.has('overdue') || undefined,
      queue: query.has('needsTranslation') ? 'NEEDS_TRANSLATION' : undefined,
      assigneeId: query.has('mine') ? me.id : undefined,
      search: query.get('search') ?? undefined,
      page: pageOf(location),
      perPage: PER_PAGE,
      // A translator may not read accounts (D28): the column is the desk's.
      desk: me.role !== 'TRANSLATOR',
    },
  });
  const orders = data?.staffOrders;
  return (
    <FilteredList
      heading="Orders"
      label="Filter orders"
      location={location}
      fields={['search', 'status']}
      flags={['overdue', 'needsTranslation', 'mine']}
      filters={
        <>
          <SearchFilter location={location} hint="Number, reference or account" />
          <StatusFilter location={location} statuses={ORDER_STATUSES} />
          <CheckFilter name="overdue" label="Overdue" location={location} />
          <CheckFilter name="needsTranslation" label="Needs translation" location={location} />
          <CheckFilter name="mine" label="Assigned to me" location={location} />
        </>
      }
      fetching={fetching}
      error={error}
      pageInfo={orders?.pageInfo}
      one="order"
      many="orders"
    >
      <CardTable
        items={orders?.items ?? []}
        columns={me.role === 'TRANSLATOR' ? COLUMNS.filter((column) => column !== ACCOUNT_COLUMN) : COLUMNS}
      />
    </FilteredList>
  );
}
