import { useAction } from '../../shared/action';
import { Form, formText, TextField } from '../../shared/form';
import { graphql } from '../../shared/gql';
import { typedHours } from '../../shared/typed-numbers';
import { ReasonForm, RefundForm, refundDone } from '../desk-forms';
import { inOffset, offsetText } from './booking-offset';
import type { Booking } from './booking-page';
import { CancelForm } from './cancel-form';
import { ConfirmForm, ReplaceInterpreterForm } from './confirm-form';

const Reschedule = graphql(`
  mutation RescheduleBooking($id: ID!, $scheduledAt: DateTime!, $durationHours: Float) {
    rescheduleInterpretationBooking(id: $id, scheduledAt: $scheduledAt, durationHours: $durationHours) {
      id
      scheduledAt
      scheduledOffsetMinutes
      scheduledAtText
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
  mutation CompleteBooking($id: ID!, $actualHours: Float) {
    completeInterpretationBooking(id: $id, actualHours: $actualHours) {
      id
      status
      payment {
        overtime {
          hours
          amountCents
          paidAt
        }
      }
    }
  }
`);
const Refund = graphql(`
  mutation RefundBooking($id: ID!, $amountCents: Int!, $reason: String!, $overtime: Boolean) {
    refundInterpretationBooking(id: $id, amountCents: $amountCents, reason: $reason, overtime: $overtime) {
      id
      status
      payment {
        refundedCents
        refundPendingCents
        overtime {
          refundedCents
        }
      }
    }
  }
`);

/**
 * The desk's moves on a booking (D28, D32): confirm an interpreter who qualifies and is free, reschedule, complete
 * with the hours it really took, hold or release (another interpreter first, when the one on record no longer
 * qualifies), refund an amount, cancel with the policy's fee shown first.
 */
export function BookingActions({ booking }: { booking: Booking }) {
  const reschedule = useAction(Reschedule, 'Booking rescheduled; the client is e-mailed.');
  const hold = useAction(Hold, 'Booking held.');
  const release = useAction(Release, 'Booking released.');
  const complete = useAction(Complete, 'Booking completed.');
  const refund = useAction(Refund, refundDone(booking.payment.provider));
  const refundOvertime = useAction(Refund, refundDone(booking.payment.overtime?.provider ?? undefined));
  const id = booking.id;
  const finished = booking.status === 'COMPLETED' || booking.status === 'CANCELLED';
  return (
    <section aria-labelledby="booking-desk-heading">
      <h2 id="booking-desk-heading">Desk</h2>
      <div className="action-grid">
        {booking.status === 'REQUESTED' && <ConfirmForm booking={booking} />}
        {!finished && (
          <Form
            submitLabel="Reschedule"
            onSubmit={(data) => {
              const durationHours = typedHours(formText(data, 'durationHours'));
              const scheduledAt = inOffset(formText(data, 'scheduledAt'), booking.scheduledOffsetMinutes);
              if ('refusal' in durationHours || !scheduledAt)
                return reschedule.refuse({
                  ...('refusal' in durationHours ? { durationHours: durationHours.refusal } : {}),
                  ...(scheduledAt ? {} : { scheduledAt: 'Choose the new start.' }),
                });
              return reschedule.run({
                id,
                scheduledAt,
                durationHours: durationHours.value,
              });
            }}
            {...reschedule.form}
          >
            <TextField
              name="scheduledAt"
              label="New start"
              hint={`In the client’s time, UTC${offsetText(booking.scheduledOffsetMinutes)}, as the booking is shown.`}
              type="datetime-local"
            />
            <TextField name="durationHours" label="Duration in hours (optional)" inputMode="decimal" />
          </Form>
        )}
        {booking.status === 'CONFIRMED' && (
          <Form
            submitLabel="Complete booking"
            onSubmit={(data) => {
              const actualHours = typedHours(formText(data, 'actualHours'));
              if ('refusal' in actualHours) return complete.refuse({ actualHours: actualHours.refusal });
              return complete.run({ id, actualHours: actualHours.value });
            }}
            {...complete.form}
          >
            <TextField
              name="actualHours"
              label="Actual hours (optional)"
              hint={`Billed: ${booking.billableHours} h. More is charged as overtime at the booking's rate.`}
              inputMode="decimal"
            />
          </Form>
        )}
        {booking.status === 'ON_HOLD' ? (
          <>
            <Form submitLabel="Release" label="Release the hold" onSubmit={() => release.run({ id })} {...release.form}>
              <p>Held: {booking.holdReason}</p>
              <p className="hint">Its interpreter is checked again; one who no longer qualifies is replaced first.</p>
            </Form>
            <ReplaceInterpreterForm booking={booking} />
          </>
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
        {booking.payment.overtime?.paidAt && (
          // The overtime has a checkout of its own (D32): refunded from that payment, never from the booking's.
          <RefundForm
            action={refundOvertime}
            of="the overtime"
            currency={booking.currency}
            variables={(amountCents, reason) => ({ id, amountCents, reason, overtime: true })}
          />
        )}
        {!finished && <CancelForm booking={booking} />}
      </div>
    </section>
  );
}
