import { useQuery } from 'urql';
import { useAction } from '../../shared/action';
import { Form, formText, TextField } from '../../shared/form';
import { formatDateTime, formatEnum, formatMoney } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { StaffBookingQuery } from '../../shared/gql/graphql';
import { Pending } from '../../shared/layout';
import { Link } from '../../shared/router';
import { AuditTrail } from '../audit-trail';
import { instant, NotesSection, ReasonForm, RefundForm } from '../desk-forms';

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
      durationHours
      billableHours
      location
      videoPlatformNotes
      reference
      interpreterName
      holdReason
      totalCents
      currency
      account {
        name
        email
      }
      payment {
        paidAt
        refundedCents
        refundPendingCents
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
const Confirm = graphql(`
  mutation ConfirmAvailability($id: ID!, $interpreterName: String!) {
    confirmInterpretationAvailability(id: $id, interpreterName: $interpreterName) {
      id
      status
      interpreterName
    }
  }
`);
const Reschedule = graphql(`
  mutation RescheduleBooking($id: ID!, $scheduledAt: DateTime!, $durationHours: Float) {
    rescheduleInterpretationBooking(id: $id, scheduledAt: $scheduledAt, durationHours: $durationHours) {
      id
      scheduledAt
      durationHours
      totalCents
    }
  }
`);
const Hold = graphql(`
  mutation HoldBooking($id: ID!, $reason: String!) {
    holdInterpretationBooking(id: $id, reason: $reason) {
      id
      status
      holdReason
    }
  }
`);
const Release = graphql(`
  mutation ReleaseBooking($id: ID!) {
    releaseInterpretationBooking(id: $id) {
      id
      status
      holdReason
    }
  }
`);
const Complete = graphql(`
  mutation CompleteBooking($id: ID!) {
    completeInterpretationBooking(id: $id) {
      id
      status
    }
  }
`);
const Cancel = graphql(`
  mutation CancelBooking($id: ID!, $reason: String!) {
    staffCancelInterpretationBooking(id: $id, reason: $reason) {
      id
      status
    }
  }
`);
const Refund = graphql(`
  mutation RefundBooking($id: ID!, $amountCents: Int!, $reason: String!) {
    refundInterpretationBooking(id: $id, amountCents: $amountCents, reason: $reason) {
      id
      status
      payment {
        refundedCents
        refundPendingCents
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

type Booking = NonNullable<StaffBookingQuery['staffInterpretationBooking']>;

/** One interpreter booking and the desk's moves on it (D28, D32 as the API offers them today). */
export function BookingPage({ number }: { number: string }) {
  const [{ data, fetching, error }] = useQuery({ query: StaffBooking, variables: { number } });
  const booking = data?.staffInterpretationBooking;
  const [audit] = useQuery({ query: BookingAudit, variables: { id: booking?.id ?? '' }, pause: !booking });
  return (
    <>
      <p>
        <Link href="/console/bookings">All bookings</Link>
      </p>
      {booking ? (
        <>
          <h1>
            Booking {booking.number} <span className="badge">{formatEnum(booking.status)}</span>
          </h1>
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
        {formatDateTime(booking.scheduledAt)}, {booking.durationHours} h ({booking.billableHours} billable)
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
      <dt>Total</dt>
      <dd>
        {formatMoney(booking.totalCents, booking.currency)}
        {booking.payment.paidAt ? `, paid ${formatDateTime(booking.payment.paidAt)}` : ', not paid'}
        {booking.payment.refundedCents > 0
          ? `, ${formatMoney(booking.payment.refundedCents, booking.currency)} refunded`
          : ''}
      </dd>
    </dl>
  );
}

function BookingActions({ booking }: { booking: Booking }) {
  const confirm = useAction(Confirm, 'Availability confirmed; the client is asked to pay.');
  const reschedule = useAction(Reschedule, 'Booking rescheduled; the client is e-mailed.');
  const hold = useAction(Hold, 'Booking held.');
  const release = useAction(Release, 'Booking released.');
  const complete = useAction(Complete, 'Booking completed.');
  const cancel = useAction(Cancel, 'Booking cancelled; the client is e-mailed.');
  const refund = useAction(Refund, 'Refund asked of the payment provider.');
  const id = booking.id;
  const finished = booking.status === 'COMPLETED' || booking.status === 'CANCELLED';
  return (
    <section aria-labelledby="booking-desk-heading">
      <h2 id="booking-desk-heading">Desk</h2>
      <div className="action-grid">
        {booking.status === 'REQUESTED' && (
          <Form
            submitLabel="Confirm availability"
            onSubmit={(data) => confirm.run({ id, interpreterName: formText(data, 'interpreterName') })}
            {...confirm.form}
          >
            <TextField name="interpreterName" label="Interpreter" autoComplete="off" />
          </Form>
        )}
        {!finished && (
          <Form
            submitLabel="Reschedule"
            onSubmit={(data) =>
              reschedule.run({
                id,
                scheduledAt: instant(formText(data, 'scheduledAt')),
                durationHours: formText(data, 'durationHours') ? Number(formText(data, 'durationHours')) : undefined,
              })
            }
            {...reschedule.form}
          >
            <TextField name="scheduledAt" label="New start" type="datetime-local" />
            <TextField name="durationHours" label="Duration in hours (optional)" inputMode="decimal" />
          </Form>
        )}
        {booking.status === 'CONFIRMED' && (
          <Form submitLabel="Complete booking" onSubmit={() => complete.run({ id })} {...complete.form} />
        )}
        {booking.status === 'ON_HOLD' ? (
          <Form submitLabel="Release" label="Release the hold" onSubmit={() => release.run({ id })} {...release.form}>
            <p>Held: {booking.holdReason}</p>
          </Form>
        ) : (
          !finished && (
            <ReasonForm
              action={hold}
              variables={(reason) => ({ id, reason })}
              submitLabel="Hold"
              fieldLabel="Reason to hold"
            />
          )
        )}
        <RefundForm
          action={refund}
          currency={booking.currency}
          variables={(amountCents, reason) => ({ id, amountCents, reason })}
        />
        {!finished && (
          <ReasonForm
            action={cancel}
            variables={(reason) => ({ id, reason })}
            submitLabel="Cancel booking"
            fieldLabel="Reason to cancel"
            hint="The client is e-mailed whether and how much is refunded."
            tone="danger"
          />
        )}
      </div>
    </section>
  );
}

function BookingNotes({ booking }: { booking: Booking }) {
  const add = useAction(AddNote, 'Note added.');
  return <NotesSection notes={booking.notes ?? []} action={add} variables={(text) => ({ id: booking.id, text })} />;
}
