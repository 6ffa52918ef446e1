import { useQuery } from 'urql';
import { useAction } from '../../shared/action';
import { Form, formText, TextArea } from '../../shared/form';
import { formatMoney } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { Booking } from './booking-page';

const Policy = graphql(`
  query BookingPolicy {
    pricing {
      bookingPolicy {
        freeCancellationStatuses
        waivableByStaff
        tiers {
          hoursBeforeStartAtLeast
          refundPercent
        }
      }
    }
  }
`);
const Cancel = graphql(`
  mutation CancelBooking($id: ID!, $reason: String!, $waiveFee: Boolean) {
    staffCancelInterpretationBooking(id: $id, reason: $reason, waiveFee: $waiveFee) {
      id
      status
      payment {
        refundedCents
        refundPendingCents
      }
    }
  }
`);

type Tier = { hoursBeforeStartAtLeast: number; refundPercent: number };

/**
 * What cancelling now keeps of what is left of the payment, as the published policy says (D32): the first tier the
 * hours left reach, the refund rounded in the client's favour, as the service computes it when the cancel arrives.
 */
export function feeNow(booking: Booking, tiers: readonly Tier[]): { feeCents: number; refundCents: number } {
  const { capturedCents, refundedCents, refundPendingCents } = booking.payment;
  const left = Math.max(0, (capturedCents ?? 0) - refundedCents - (refundPendingCents ?? 0));
  const hours = Math.max(0, (new Date(booking.scheduledAt).getTime() - Date.now()) / 3600_000);
  const tier = tiers.find((t) => hours >= t.hoursBeforeStartAtLeast) ?? { refundPercent: 0 };
  const refundCents = Math.ceil((left * tier.refundPercent) / 100);
  return { feeCents: left - refundCents, refundCents };
}

/** "Cancel booking" with a reason, the policy's fee shown before it, and "Waive the fee" for the desk. */
export function CancelForm({ booking }: { booking: Booking }) {
  const [{ data }] = useQuery({ query: Policy, requestPolicy: 'cache-first' });
  const cancel = useAction(Cancel, 'Booking cancelled; the client is e-mailed.');
  const policy = data?.pricing.bookingPolicy;
  const free = !policy || policy.freeCancellationStatuses.includes(booking.status);
  const { feeCents, refundCents } = policy ? feeNow(booking, policy.tiers) : { feeCents: 0, refundCents: 0 };
  return (
    <Form
      submitLabel="Cancel booking"
      label="Reason to cancel"
      tone="danger"
      onSubmit={(form) =>
        cancel.run({ id: booking.id, reason: formText(form, 'reason'), waiveFee: form.has('waiveFee') || undefined })
      }
      {...cancel.form}
    >
      <p className="hint">
        {free
          ? 'Nothing was paid: it cancels free.'
          : feeCents > 0
            ? `Cancelling now keeps a fee of ${formatMoney(feeCents, booking.currency)} and refunds ${formatMoney(refundCents, booking.currency)}.`
            : `Cancelling now refunds ${formatMoney(refundCents, booking.currency)}: no fee.`}
      </p>
      {!free && feeCents > 0 && policy?.waivableByStaff && (
        <label className="check">
          <input type="checkbox" name="waiveFee" /> Waive the fee (refund all of it)
        </label>
      )}
      <TextArea
        name="reason"
        label="Reason to cancel"
        hint="The client is e-mailed whether and how much is refunded."
      />
    </Form>
  );
}
