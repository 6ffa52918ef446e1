import { useClient, useMutation, useQuery } from 'urql';
import { graphql } from '../../shared/gql';
import { Pending } from '../../shared/layout';
import { CheckoutOutcome } from '../checkout-outcome';
import { ActDone, ConfirmStep, useConfirmation } from '../confirm-step';
import { money, statusLabel } from '../format';
import { mayAct, useMe } from '../member-context';
import { useRefreshOnChange } from '../poll';
import { personRefusal } from '../refusal';

/** What moves when the booking's page would: its last change (one unit, D24). */
const PortalBookingMark = graphql(`
  query PortalBookingMark($id: ID!) {
    interpretationBooking(id: $id) {
      id
      updatedAt
    }
  }
`);

const PortalBooking = graphql(`
  query PortalBooking($id: ID!) {
    interpretationBooking(id: $id) {
      id
      number
      status
      mode
      setting
      sourceLanguage
      targetLanguage
      scheduledAtText
      durationHours
      location
      reference
      interpreterName
      cancellationDeadlines {
        terms
      }
      totalCents
      currency
      cancelledAt
      payment {
        approvalUrl
        paidAt
      }
    }
  }
`);

const CancelBooking = graphql(`
  mutation PortalCancelBooking($id: ID!) {
    cancelInterpretationBooking(id: $id) {
      id
      status
      cancelledAt
    }
  }
`);

/**
 * What a client may cancel: a booking not paid yet, which cancels free (docs/decisions.md D32). A paid one, or one on
 * hold, is cancelled by the desk under the deadlines it shows, so the button is not drawn to be refused.
 */
const CLIENT_CANCELS = new Set(['REQUESTED', 'AWAITING_PAYMENT']);

/**
 * One interpreter booking: its start in the person's own time zone, the cancellation deadlines as its e-mails write
 * them (in the offset it was booked in, UTC beside it, D32), "Pay" once confirmed, "Cancel booking" until paid.
 */
export function BookingPage({ id }: { id: string }) {
  const [{ data, fetching, error }, refresh] = useQuery({ query: PortalBooking, variables: { id } });
  const client = useClient();
  // Kept current as the order's page is: the desk's confirmation shows "Pay" without a reload.
  useRefreshOnChange(
    async () =>
      (await client.query(PortalBookingMark, { id }, { requestPolicy: 'network-only' }).toPromise()).data
        ?.interpretationBooking?.updatedAt,
    () => refresh({ requestPolicy: 'network-only' }),
  );
  const [cancelled, cancel] = useMutation(CancelBooking);
  const confirmation = useConfirmation();
  const me = useMe();
  const booking = data?.interpretationBooking;
  if (!booking) return <Pending fetching={fetching} error={error} />;
  return (
    <>
      <h1>Booking {booking.number}</h1>
      <CheckoutOutcome />
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <span className="badge">{statusLabel(booking.status)}</span>
        </dd>
        <dt>When</dt>
        <dd>
          {booking.scheduledAtText}, {booking.durationHours} h
        </dd>
        <dt>Interpreting</dt>
        <dd>
          {booking.sourceLanguage} ↔ {booking.targetLanguage}, {statusLabel(booking.mode)},{' '}
          {statusLabel(booking.setting)}
        </dd>
        <dt>Where</dt>
        <dd>{booking.location ?? '—'}</dd>
        <dt>Interpreter</dt>
        <dd>{booking.interpreterName ?? 'Not confirmed yet'}</dd>
        <dt>Reference</dt>
        <dd>{booking.reference ?? '—'}</dd>
        <dt>Total</dt>
        <dd>{money(booking.totalCents, booking.currency)}</dd>
        {booking.cancellationDeadlines && (
          <>
            <dt>Cancellation</dt>
            <dd>{booking.cancellationDeadlines.terms} A paid booking is cancelled by our desk, on these terms.</dd>
          </>
        )}
      </dl>
      {mayAct(me) && booking.status === 'AWAITING_PAYMENT' && booking.payment.approvalUrl && (
        <p>
          <a className="button" href={booking.payment.approvalUrl}>
            Pay
          </a>
        </p>
      )}
      {cancelled.data ? (
        <ActDone>The booking was cancelled; nothing was charged.</ActDone>
      ) : (
        mayAct(me) &&
        CLIENT_CANCELS.has(booking.status) &&
        (confirmation.shown ? (
          <ConfirmStep
            question="Cancel this booking?"
            consequence="The request for an interpreter is withdrawn; a cancelled booking cannot be opened again."
            act="Cancel booking now"
            keep="Keep the booking"
            busy={cancelled.fetching}
            refusal={personRefusal(cancelled.error)}
            confirmation={confirmation}
            onAct={() => cancel({ id: booking.id })}
          />
        ) : (
          <p>
            <button ref={confirmation.asker} type="button" className="secondary" onClick={confirmation.ask}>
              Cancel booking
            </button>
          </p>
        ))
      )}
    </>
  );
}
