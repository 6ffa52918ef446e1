import { useQuery } from 'urql';
import { graphql } from '../../shared/gql';
import { Pending } from '../../shared/layout';
import { Link } from '../../shared/router';

const StaffOrderQueue = graphql(`
  query StaffOrderQueue($page: Int, $perPage: Int) {
    staffOrders(page: $page, perPage: $perPage) {
      items {
        id
        number
        status
        reference
        dueAt
        account {
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

/** The order queue, soonest due first. */
export function OrderQueue() {
  const [{ data, fetching, error }] = useQuery({ query: StaffOrderQueue, variables: { page: 1, perPage: 25 } });
  const orders = data?.staffOrders;
  return (
    <>
      <h1>Orders</h1>
      <Pending fetching={fetching && !orders} error={error} />
      {orders && (
        <table className="cards">
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Status</th>
              <th scope="col">Account</th>
              <th scope="col">Reference</th>
              <th scope="col">Due</th>
            </tr>
          </thead>
          <tbody>
            {orders.items.map((order) => (
              <tr key={order.id}>
                <td data-label="Number">
                  <Link href={`/console/orders/${order.number}`}>{order.number}</Link>
                </td>
                <td data-label="Status">{order.status}</td>
                <td data-label="Account">{order.account?.name}</td>
                <td data-label="Reference">{order.reference}</td>
                <td data-label="Due">{order.dueAt}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
