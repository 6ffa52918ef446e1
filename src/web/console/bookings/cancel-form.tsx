import { useEffect, useRef } from 'react';
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
        capturedCents
        refundedCents
        refundPendingCents
        status
      }
    }
  }
`);

type Payment = Pick<Booking['payment'], 'capturedCents' | 'refundedCents' | 'refundPendingCents'> & {
  status?: string | null;
};
const given = (payment: Payment) => payment.refundedCents + (payment.refundPendingCents ?? 0);

/**
 * What the cancel did with the money, from the payment before and after it: the service computes the fee again when
 * the cancel arrives (a deadline may have passed since the page showed it), so the line says what it kept.
 */
function cancelledLine(before: Payment, after: Payment, currency: string): string {
  const left = (before.capturedCents ?? 0) - given(before);
  if (left <= 0) return 'Booking cancelled; nothing paid was left to refund. The client is e-mailed.';
  // All of it going back is a refund of the whole payment, counted once the provider answers: not yet in the sums.
  const refund = after.status === 'REFUNDING' ? left : given(after) - given(before);
  const fee = left - refund;
  const money = (cents: number) => formatMoney(cents, currency);
  return fee > 0
    ? `Booking cancelled; a fee of ${money(fee)} is kept and ${money(refund)} refunded. The client is e-mailed.`
    : `Booking cancelled; ${money(refund)} refunded, no fee kept. The client is e-mailed.`;
}

const HOUR_MS = 3_600_000;
/** setTimeout's longest delay; a later deadline is looked at again then. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Reads the booking again when the next deadline of its cancellation policy passes, so the fee "Cancel booking" shows
 * is the one a cancel would keep now, not the one of when the page was opened (D32). The wait is counted from the
 * moment the service computed the fee (the start less its `hoursBeforeStart`), not by this machine's clock.
 */
export function useFeeKeptCurrent(booking: Booking | null | undefined, readAgain: () => void): void {
  const latest = useRef(readAgain);
  latest.current = readAgain;
  const wait = booking ? untilNextDeadline(booking) : undefined;
  useEffect(() => {
    if (wait === undefined) return;
    const timer = setTimeout(() => latest.current(), Math.min(wait, LONGEST_TIMER_MS));
    return () => clearTimeout(timer);
  }, [wait]);
}

const untilNextDeadline = ({ cancellationDeadlines: deadlines, cancellationFeeNow: fee, scheduledAt }: Booking) => {
  if (!deadlines || !fee) return undefined;
  const computedAt = new Date(scheduledAt).getTime() - fee.hoursBeforeStart * HOUR_MS;
  const next = [deadlines.fullRefundUntil, deadlines.halfRefundUntil]
    .map((deadline) => new Date(deadline).getTime())
    .find((deadline) => deadline >= computedAt);
  // The deadline itself still keeps its tier ("until this moment, included"): read again just after it.
  return next === undefined ? undefined : next - computedAt + 1_000;
};

/**
 * "Cancel booking" with a reason, the fee the service computes by the policy (`cancellationFeeNow`, D32) shown before
 * it, and "Waive the fee" for the desk. The service computes the fee again when the cancel arrives.
 */
export function CancelForm({ booking }: { booking: Booking }) {
  const cancel = useAction(Cancel, (answer) =>
    cancelledLine(booking.payment, answer.staffCancelInterpretationBooking.payment, booking.currency),
  );
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
