import type { Response } from 'express';
import type { CheckoutSummary } from '../../../domain/payments/checkout-summary';
import { formatMoney } from '../../../domain/shared/money';
import { PaymentStatus, type Payment } from '../../../domain/payments/payment.entity';
import { escapeHtml, htmlDocument } from '../../http/html';

export type CheckoutOutcome = 'paid' | 'processing' | 'cancelled' | 'declined';

/** A payment with what it pays for and who is paid: everything a checkout page or its return needs. */
export interface CheckoutView {
  payment: Payment;
  summary: CheckoutSummary | null;
  operator: string;
  /** Work placed on account (D31): nothing was paid, it goes on the monthly invoice. */
  onAccount: boolean;
}

const OUTCOMES: Record<CheckoutOutcome | 'placed', { title: string; tone: string; text: string }> = {
  placed: {
    title: 'Placed on account',
    tone: 'ok',
    text: 'Thank you: it is placed on your account and will be on your next monthly invoice. Nothing was charged now.',
  },
  paid: {
    title: 'Payment received',
    tone: 'ok',
    text: 'Thank you: your payment was received. A receipt is on its way by e-mail.',
  },
  processing: {
    title: 'Payment being processed',
    tone: '',
    text: 'Your payment is being processed. You will receive a receipt by e-mail once it is complete.',
  },
  cancelled: {
    title: 'Payment cancelled',
    tone: 'closed',
    text: 'You left the checkout without paying. Nothing was charged.',
  },
  declined: {
    title: 'Payment not taken',
    tone: 'closed',
    text: 'The payment could not be taken and nothing was charged.',
  },
};

/**
 * After a checkout: back to the client's redirect_url with `payment=<outcome>` and the order's or booking's id
 * (`order_id` or `booking_id`), or a page saying what happened when the client gave none.
 */
export function finishCheckout(res: Response, view: CheckoutView, outcome: CheckoutOutcome): void {
  if (view.payment.redirectUrl) {
    const target = new URL(view.payment.redirectUrl);
    target.searchParams.set('payment', outcome);
    if (view.summary) target.searchParams.set(`${view.summary.kind}_id`, view.summary.id);
    return void res.redirect(303, target.toString());
  }
  const { title, tone, text } = OUTCOMES[view.onAccount && outcome === 'paid' ? 'placed' : outcome];
  // A checkout that could no longer be paid says why (D29: the booking's start passed).
  const said = outcome === 'declined' && view.summary?.closedReason ? view.summary.closedReason : text;
  res.type('html').send(page(view, title, `<p class="status ${tone}" role="status">${escapeHtml(said)}</p>`));
}

/** The sandbox's hosted checkout: what is paid for, line by line, and Pay and Cancel while it is payable. */
export function checkoutPage(view: CheckoutView, formBase: string): string {
  const amount = formatMoney(view.payment.amountCents, view.payment.currency);
  const closedReason = view.payment.status === PaymentStatus.CREATED ? view.summary?.closedReason : null;
  const body = closedReason
    ? `<p class="status closed" role="status">${escapeHtml(closedReason)}</p>`
    : view.payment.status === PaymentStatus.CREATED
      ? `<div class="actions">
<form method="post" action="${formBase}/pay"><button type="submit" class="primary" aria-label="Pay ${escapeHtml(amount)}">Pay ${escapeHtml(amount)}</button></form>
<form method="post" action="${formBase}/cancel"><button type="submit" class="secondary">Cancel</button></form>
</div><p class="note">Sandbox checkout: no money moves.</p>`
      : `<p class="status ${STATES[view.payment.status].tone}" role="status">${escapeHtml(STATES[view.payment.status].text)}</p>`;
  return page(view, `Pay ${view.operator}`, body);
}

const STATES: Record<PaymentStatus, { tone: string; text: string }> = {
  [PaymentStatus.CREATED]: { tone: '', text: 'Waiting for payment.' },
  [PaymentStatus.CAPTURING]: { tone: '', text: 'This payment is being processed.' },
  [PaymentStatus.CAPTURED]: { tone: 'ok', text: 'This checkout is already paid.' },
  [PaymentStatus.REFUNDING]: { tone: 'closed', text: 'This payment is being refunded.' },
  [PaymentStatus.REFUNDED]: { tone: 'closed', text: 'This payment was refunded.' },
  [PaymentStatus.REFUND_REFUSED]: { tone: 'closed', text: 'Our staff are arranging the refund of this payment.' },
  [PaymentStatus.VOIDED]: {
    tone: 'closed',
    text: 'This checkout was cancelled or replaced by a newer one, and can no longer be paid.',
  },
};

/** A checkout-like page: the operator, what is paid for line by line with its total, then `body`. */
export function page(view: CheckoutView, title: string, body: string): string {
  const { summary, payment } = view;
  const heading = summary
    ? `${summary.kind === 'order' ? 'Translation order' : 'Interpreter booking'} <span class="nowrap">${escapeHtml(summary.number)}</span>`
    : escapeHtml(payment.description);
  const lines = summary?.lines ?? [{ label: payment.description, amountCents: payment.amountCents }];
  const rows = lines
    .map(
      (line) =>
        `<tr><td>${escapeHtml(line.label)}</td><td class="amount">${escapeHtml(formatMoney(line.amountCents, payment.currency))}</td></tr>`,
    )
    .join('');
  const terms = summary?.terms ? `<p class="note">${escapeHtml(summary.terms)}</p>` : '';
  const total = `<tr class="total"><td>Total</td><td class="amount">${escapeHtml(formatMoney(payment.amountCents, payment.currency))}</td></tr>`;
  return htmlDocument(
    title,
    `<main><div class="card"><header>${escapeHtml(view.operator)}</header><h1>${heading}</h1>
<table aria-label="What you pay for"><tbody>${rows}${total}</tbody></table>${terms}${body}</div></main>`,
  );
}
