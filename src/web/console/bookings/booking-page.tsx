import { ScreenOutcome, useAction, useScreenQuery } from '../../shared/action';
import { formatDateTime, formatEnum, formatMoney } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { StaffBookingQuery } from '../../shared/gql/graphql';
import { Pending } from '../../shared/layout';
import { BackToList } from '../../shared/list-return';
import { AuditTrail } from '../audit-trail';
import { NotesSection } from '../desk-forms';
import { BookingActions } from './booking-desk';
import { useFeeKeptCurrent } from './cancel-form';

const StaffBooking = graphql(`
  query StaffBooking($number: String!) {
    staffInterpretationBooking(number: $number) {
      id
      number
      status
      mode
      setting
      sourceLanguage
      targetLanguage
      scheduledAt
      scheduledOffsetMinutes
      scheduledAtText
      durationHours
      billableHours
      location
      videoPlatformNotes
      reference
      interpreterName
      holdReason
      cancellationDeadlines {
        terms
        fullRefundUntil
        halfRefundUntil
      }
      cancellationFeeNow {
        feeCents
        refundCents
        hoursBeforeStart
      }
      totalCents
      currency
      account {
        name
        email
      }
      payment {
        provider
        paidAt
        capturedCents
        refundedCents
        refundPendingCents
        overtime {
          hours
          amountCents
          paidAt
          refundedCents
          provider
        }
      }
      notes {
        id
        text
        createdAt
        author {
          name
        }
      }
    }
  }
`);
const BookingAudit = graphql(`
  query BookingAudit($id: ID!) {
    auditLog(resourceId: $id, perPage: 100) {
      items {
        id
        action
        actorLabel
        fromState
        toState
        createdAt
      }
    }
  }
`);
const AddNote = graphql(`
  mutation AddBookingNote($id: ID!, $text: String!) {
    addBookingNote(id: $id, text: $text) {
      id
      text
      createdAt
      author {
        name
      }
    }
  }
`);

export type Booking = NonNullable<StaffBookingQuery['staffInterpretationBooking']>;

/**
 * The trail answers audit entries only, which no desk move answers: it is read again whenever a move answers a booking
 * (urql refetches the queries of the types a mutation answers), so the move just made shows in it.
 */
const AUDIT_CONTEXT = { additionalTypenames: ['InterpretationBooking'] };
/** Likewise the booking, for a first note: an empty list names no note type for a new note to refresh. */
const BOOKING_CONTEXT = { additionalTypenames: ['InterpretationBookingNote'] };

/** One interpreter booking and the desk's moves on it (D28, D32 as the API offers them today). */
export function BookingPage({ number }: { number: string }) {
  const [{ data, fetching, error }, refetch] = useScreenQuery({
    query: StaffBooking,
    variables: { number },
    context: BOOKING_CONTEXT,
    // Opened again, the booking is read anew behind what the cache shows: the fee's re-read is timed from when the
    // service computed it, which the cached answer would put in the past.
    requestPolicy: 'cache-and-network',
  });
  const booking = data?.staffInterpretationBooking;
  useFeeKeptCurrent(booking, () => refetch({ requestPolicy: 'network-only' }));
  const [audit] = useScreenQuery({
    query: BookingAudit,
    variables: { id: booking?.id ?? '' },
    pause: !booking,
    context: AUDIT_CONTEXT,
  });
  return (
    <>
      <BackToList path="/console/bookings" label="Back to bookings" />
      {booking ? (
        <>
          <h1>
            Booking {booking.number} <span className="badge">{formatEnum(booking.status)}</span>
          </h1>
          <ScreenOutcome />
          <BookingFacts booking={booking} />
          <BookingActions booking={booking} />
          <BookingNotes booking={booking} />
          {audit.data && <AuditTrail entries={audit.data.auditLog.items} />}
        </>
      ) : fetching || error ? (
        <Pending fetching={fetching} error={error} />
      ) : (
        <h1>No booking {number}</h1>
      )}
    </>
  );
}

function BookingFacts({ booking }: { booking: Booking }) {
  return (
    <dl className="facts">
      <dt>Account</dt>
      <dd>
        {booking.account?.name} ({booking.account?.email})
      </dd>
      <dt>When</dt>
      <dd>
        {booking.scheduledAtText}, {booking.durationHours} h ({booking.billableHours} billable)
      </dd>
      <dt>Service</dt>
      <dd>
        {formatEnum(booking.mode)}, {formatEnum(booking.setting)}, {booking.sourceLanguage} → {booking.targetLanguage}
      </dd>
      <dt>Where</dt>
      <dd>{booking.location ?? booking.videoPlatformNotes ?? '—'}</dd>
      <dt>Reference</dt>
      <dd>{booking.reference ?? '—'}</dd>
      <dt>Interpreter</dt>
      <dd>{booking.interpreterName ?? 'Not confirmed'}</dd>
      {booking.holdReason && (
        <>
          <dt>Held because</dt>
          <dd>{booking.holdReason}</dd>
        </>
      )}
      {booking.cancellationDeadlines && (
        <>
          <dt>Cancellation</dt>
          <dd>{booking.cancellationDeadlines.terms}</dd>
        </>
      )}
      <dt>Total</dt>
      <dd>
        {formatMoney(booking.totalCents, booking.currency)}
        {booking.payment.paidAt ? `, paid ${formatDateTime(booking.payment.paidAt)}` : ', not paid'}
        {booking.payment.refundedCents > 0
          ? `, ${formatMoney(booking.payment.refundedCents, booking.currency)} refunded`
          : ''}
        {booking.payment.overtime &&
          `; overtime ${booking.payment.overtime.hours} h, ${formatMoney(booking.payment.overtime.amountCents, booking.currency)}${booking.payment.overtime.paidAt ? ' paid' : ' not paid yet'}${booking.payment.overtime.refundedCents > 0 ? `, ${formatMoney(booking.payment.overtime.refundedCents, booking.currency)} refunded` : ''}`}
      </dd>
    </dl>
  );
}

function BookingNotes({ booking }: { booking: Booking }) {
  const add = useAction(AddNote, 'Note added.');
  return <NotesSection notes={booking.notes ?? []} action={add} variables={(text) => ({ id: booking.id, text })} />;
}
