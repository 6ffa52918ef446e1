/** What a payer pays for, as the hosted checkout page, the return redirect and receipts show it. */
export interface CheckoutLine {
  label: string;
  amountCents: number;
}

export interface CheckoutSummary {
  kind: 'order' | 'booking';
  id: string;
  number: string;
  lines: CheckoutLine[];
  totalCents: number;
  currency: string;
  /** Why the checkout can no longer be paid though its payment is open (D29: the booking's start passed); else null. */
  closedReason: string | null;
  /** What the payer agrees to by paying, shown under the lines (a booking's cancellation deadlines, D32). */
  terms?: string;
}
