import { useEffect } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../shared/gql';
import { Pending } from '../../shared/layout';
import { navigate } from '../../shared/router';

const OrderIdByNumber = graphql(`
  query OrderIdByNumber($number: String!) {
    orderByNumber(number: $number) {
      id
    }
  }
`);

/** An order's number as e-mails and invoices print it: an id (an order's page is polled by id, D23). */
export const isOrderNumber = (segment: string) => !/^[0-9a-f]{8}-/i.test(segment);

/**
 * `/portal/orders/LT-2611-AB12CD`, the number a person reads in an e-mail or on an invoice: the order is found by it
 * and its page opened at its own address, by id.
 */
export function OrderByNumber({ number }: { number: string }) {
  const [{ data, fetching, error }] = useQuery({ query: OrderIdByNumber, variables: { number } });
  const id = data?.orderByNumber?.id;
  useEffect(() => {
    if (id) navigate(`/portal/orders/${id}`, { replace: true });
  }, [id]);
  if (fetching || id) return <Pending fetching />;
  return (
    <>
      <h1>Order {number}</h1>
      <p role="alert">
        {error?.graphQLErrors.some((e) => e.extensions?.code === 'NOT_FOUND')
          ? 'You have no order with this number. Check it against the e-mail or invoice it came from.'
          : 'The order could not be read just now. Reload the page to try again.'}
      </p>
    </>
  );
}
