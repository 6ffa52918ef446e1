import { useQuery } from 'urql';
import { Form } from '../../shared/form';
import { formatDateTime, formatEnum } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { OrderStatus } from '../../shared/gql/graphql';
import { Count, SearchFilter, StatusFilter } from '../queue-filters';
import { Pending } from '../../shared/layout';
import { Pager } from '../../shared/pager';
import { Link, navigateToFilters, useLocation } from '../../shared/router';
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
        account {
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

/**
 * The order queue, soonest due first: by status, overdue, waiting for a translator, assigned to me, or a search by
 * number, reference or account name. The filters are the address's query, so a filtered queue is a link; the
 * service pages the list in the database.
 */
export function OrderQueue() {
  const location = useLocation();
  const me = useMe();
  const { query } = location;
  const page = Number(query.get('page') ?? '1') || 1;
  const [{ data, fetching, error }] = useQuery({
    query: StaffOrderQueue,
    variables: {
      status: (query.get('status') as OrderStatus | null) ?? undefined,
      overdue: query.has('overdue') || undefined,
      queue: query.has('needsTranslation') ? 'NEEDS_TRANSLATION' : undefined,
      assigneeId: query.has('mine') ? me.id : undefined,
      search: query.get('search') ?? undefined,
      page,
      perPage: PER_PAGE,
    },
  });
  const orders = data?.staffOrders;

  const filter = (form: FormData) =>
    navigateToFilters(location.path, form, ['search', 'status'], ['overdue', 'needsTranslation', 'mine']);

  return (
    <>
      <h1>Orders</h1>
      <Form submitLabel="Filter" onSubmit={filter} className="form inline" label="Filter orders">
        <SearchFilter location={location} />
        <StatusFilter location={location} statuses={ORDER_STATUSES} />
        <Check name="overdue" label="Overdue" checked={query.has('overdue')} />
        <Check name="needsTranslation" label="Needs translation" checked={query.has('needsTranslation')} />
        <Check name="mine" label="Assigned to me" checked={query.has('mine')} />
      </Form>
      <Pending fetching={fetching && !orders} error={error} />
      {orders && (
        <>
          <Count total={orders.pageInfo.total} one="order" many="orders" />
          {orders.items.length > 0 && (
            <table className="cards">
              <thead>
                <tr>
                  <th scope="col">Number</th>
                  <th scope="col">Status</th>
                  <th scope="col">Account</th>
                  <th scope="col">Reference</th>
                  <th scope="col">Languages</th>
                  <th scope="col">Due</th>
                  <th scope="col">Assignee</th>
                </tr>
              </thead>
              <tbody>
                {orders.items.map((order) => {
                  const overdue =
                    order.dueAt && !FINISHED.includes(order.status) && new Date(order.dueAt).getTime() < Date.now();
                  return (
                    <tr key={order.id}>
                      <td data-label="Number">
                        <Link href={`/console/orders/${order.number}`}>{order.number}</Link>
                      </td>
                      <td data-label="Status">
                        <span className="badge">{formatEnum(order.status)}</span>{' '}
                        {overdue && <span className="badge bad">Overdue</span>}
                      </td>
                      <td data-label="Account">{order.account?.name}</td>
                      <td data-label="Reference">{order.reference ?? '—'}</td>
                      <td data-label="Languages">
                        {order.sourceLanguage} → {order.targetLanguage} ({order.serviceType.toLowerCase()})
                      </td>
                      <td data-label="Due">{formatDateTime(order.dueAt)}</td>
                      <td data-label="Assignee">{order.assignee?.name ?? '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          <Pager location={location} page={orders.pageInfo.page} lastPage={orders.pageInfo.lastPage} />
        </>
      )}
    </>
  );
}

function Check({ name, label, checked }: { name: string; label: string; checked: boolean }) {
  return (
    <label className="check">
      <input type="checkbox" name={name} defaultChecked={checked} key={`${name}-${checked}`} /> {label}
    </label>
  );
}
