import { useLocation } from '../shared/router';

const OUTCOMES: Record<string, string> = {
  paid: 'Thank you: the payment went through.',
  processing: 'The payment is being processed; the status changes here once it is through.',
  cancelled: 'The payment was cancelled; nothing was charged. You can pay again below.',
  declined: 'The payment was declined; nothing was charged.',
};

/** What the checkout said when it sent the payer back here (`?payment=<outcome>`), in words. */
export function CheckoutOutcome() {
  const outcome = useLocation().query.get('payment');
  const text = outcome ? OUTCOMES[outcome] : undefined;
  if (!text) return null;
  return (
    <p role="status" className={outcome === 'paid' ? 'done' : 'refusal'}>
      {text}
    </p>
  );
}
