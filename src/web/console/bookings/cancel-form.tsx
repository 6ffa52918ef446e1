import { useAction } from '../../shared/action';
import { Form, formText, TextArea } from '../../shared/form';
import { formatMoney } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { Booking } from './booking-page';

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

/**
 * "Cancel booking" with a reason, the fee the service computes by the policy (`cancellationFeeNow`, D32) shown before
 * it, and "Waive the fee" for the desk. The service computes the fee again when the cancel arrives.
 */
export function CancelForm({ booking }: { booking: Booking }) {
  const cancel = useAction(Cancel, 'Booking cancelled; the client is e-mailed.');
  const fee = booking.cancellationFeeNow;
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
        {!fee
          ? 'Nothing was paid: it cancels free.'
          : fee.feeCents > 0
            ? `Cancelling now keeps a fee of ${formatMoney(fee.feeCents, booking.currency)} and refunds ${formatMoney(fee.refundCents, booking.currency)}.`
            : `Cancelling now refunds ${formatMoney(fee.refundCents, booking.currency)}: no fee.`}
      </p>
      {fee && fee.feeCents > 0 && (
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
