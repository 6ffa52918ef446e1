import { useCallback, useState } from 'react';
import { useMutation } from 'urql';
import { Form } from '../../shared/form';
import { graphql } from '../../shared/gql';
import type { CreateQuoteMutation } from '../../shared/gql/graphql';
import { Link } from '../../shared/router';
import { money, when } from '../format';
import { onTerms, useMe } from '../member-context';
import { personRefusal } from '../refusal';

const ConvertQuote = graphql(`
  mutation ConvertQuote($id: ID!, $redirectUrl: String, $onAccount: Boolean) {
    convertQuote(id: $id, redirectUrl: $redirectUrl, onAccount: $onAccount) {
      approvalUrl
      order {
        id
        number
      }
    }
  }
`);

const RenewCheckout = graphql(`
  mutation PortalRenewCheckout($orderId: ID!, $redirectUrl: String) {
    renewCheckout(orderId: $orderId, redirectUrl: $redirectUrl) {
      approvalUrl
    }
  }
`);

type Quote = CreateQuoteMutation['createQuote'];

/** What the quote became: an order to pay at `payAt`, or one placed on account (no `payAt`). */
interface Placed {
  order: { id: string; number: string };
  payAt?: string;
}

/**
 * The quote, line by line, and what to do with it: "Convert" then "Pay" at the checkout; on a terms account
 * (docs/decisions.md D31) "Place order on account", and when that is refused (the credit limit, an overdue invoice)
 * the reason and "Pay by card instead": the quote is converted and its checkout renewed at the card provider, since
 * a terms account's own checkout is the placement page.
 */
export function QuoteSection({ priced, addonName }: { priced: Quote; addonName: (code: string) => string }) {
  const me = useMe();
  const [converted, convert] = useMutation(ConvertQuote);
  const [renewed, renew] = useMutation(RenewCheckout);
  const [placed, setPlaced] = useState<Placed>();
  const [refusedOnAccount, setRefusedOnAccount] = useState(false);
  const redirectUrl = `${location.origin}/portal/paid`;
  // The button pressed is gone once the order is made: the focus goes to what comes next (Pay, or the news), not
  // back to the top of the page, for a person on the keyboard or a screen reader.
  const focusOnArrival = useCallback((element: HTMLElement | null) => element?.focus(), []);

  const placeOnAccount = async () => {
    const answer = await convert({ id: priced.id, onAccount: true });
    if (answer.data) setPlaced({ order: answer.data.convertQuote.order });
    else setRefusedOnAccount(true);
  };
  const payByCard = async () => {
    const answer = await convert({ id: priced.id, redirectUrl });
    const order = answer.data?.convertQuote.order;
    if (!order) return;
    const card = onTerms(me) ? (await renew({ orderId: order.id, redirectUrl })).data?.renewCheckout : undefined;
    setPlaced({ order, payAt: card?.approvalUrl ?? answer.data!.convertQuote.approvalUrl ?? undefined });
  };

  return (
    <section aria-labelledby="quote-heading" className="quote">
      <h2 id="quote-heading">Your quote</h2>
      <dl className="facts">
        <dt>Translation</dt>
        <dd>
          {priced.unitCount} {priced.unitType.toLowerCase()}s × {money(priced.unitPriceCents, priced.currency)} ={' '}
          {money(priced.subtotalCents, priced.currency)}
        </dd>
        {priced.addons.map((addon) => (
          <div key={addon.code} className="fact">
            <dt>{addonName(addon.code)}</dt>
            <dd>
              {addon.quantity} × {money(addon.unitPriceCents, priced.currency)} ={' '}
              {money(addon.totalCents, priced.currency)}
            </dd>
          </div>
        ))}
        <dt>Total</dt>
        <dd>
          <strong>{money(priced.totalCents, priced.currency)}</strong>
        </dd>
        <dt>Valid until</dt>
        <dd>{when(priced.expiresAt)}</dd>
      </dl>
      {placed ? (
        <p role="status" tabIndex={-1} ref={placed.payAt ? undefined : focusOnArrival}>
          Order <Link href={`/portal/orders/${placed.order.id}`}>{placed.order.number}</Link>{' '}
          {placed.payAt ? (
            <>
              is placed.{' '}
              <a className="button" href={placed.payAt} ref={focusOnArrival}>
                Pay
              </a>
            </>
          ) : (
            'is placed on account: it goes on your next monthly invoice.'
          )}
        </p>
      ) : onTerms(me) && !refusedOnAccount ? (
        <Form
          submitLabel="Place order on account"
          label="Place the order on account"
          busy={converted.fetching}
          refusal={personRefusal(converted.error)}
          onSubmit={placeOnAccount}
        >
          <p>No payment now: the order goes on your account&apos;s next monthly invoice.</p>
        </Form>
      ) : (
        <Form
          submitLabel={refusedOnAccount ? 'Pay by card instead' : 'Convert'}
          label="Convert the quote into an order"
          busy={converted.fetching || renewed.fetching}
          refusal={personRefusal(converted.error ?? renewed.error)}
          onSubmit={payByCard}
        />
      )}
    </section>
  );
}
