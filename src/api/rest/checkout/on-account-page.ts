import { PaymentStatus } from '../../../domain/payments/payment.entity';
import { escapeHtml } from '../../http/html';
import { page, type CheckoutView } from './checkout-pages';

/**
 * The placement page's policy: nothing loads from anywhere, nothing frames it. No `form-action`: placing sends the
 * person back to the client's own `redirect_url`, as a checkout does.
 */
export const ON_ACCOUNT_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

/**
 * D31's "Place order on account" page: what is placed, line by line, and the button while it can be placed; when it
 * cannot (`refusal`: the credit limit, an overdue invoice), why, and the card checkout instead.
 */
export function onAccountPage(view: CheckoutView, formBase: string, refusal: string | null): string {
  const { payment, summary } = view;
  const what = summary?.kind === 'booking' ? 'booking' : 'order';
  const open = payment.status === PaymentStatus.CREATED && !summary?.closedReason;
  let body: string;
  if (!open)
    body = status(summary?.closedReason ?? PLACED[payment.status] ?? 'This can no longer be placed.', 'closed');
  else if (refusal)
    body = `${status(refusal, 'closed')}<div class="actions"><form method="post" action="${formBase}/card"><button type="submit" class="primary">Pay by card instead</button></form></div>`;
  else
    body = `<div class="actions"><form method="post" action="${formBase}/place"><button type="submit" class="primary">Place ${what} on account</button></form></div>
<p class="note">No payment now: it goes on your account's next monthly invoice.</p>`;
  return page(view, `Place ${what} on account`, body);
}

const status = (text: string, tone: string) => `<p class="status ${tone}" role="status">${escapeHtml(text)}</p>`;

const PLACED: Partial<Record<PaymentStatus, string>> = {
  [PaymentStatus.CAPTURING]: 'This is being placed on account.',
  [PaymentStatus.CAPTURED]: 'This is placed on account: it will be on your next invoice.',
  [PaymentStatus.VOIDED]: 'This was cancelled or is being paid another way, and can no longer be placed on account.',
};
