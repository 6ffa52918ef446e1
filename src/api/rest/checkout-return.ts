import type { Response } from 'express';
import type { Payment } from '../../domain/payments/payment.entity';

export type CheckoutOutcome = 'paid' | 'processing' | 'cancelled' | 'declined';

const TITLES: Record<CheckoutOutcome, string> = {
  paid: 'Payment received',
  processing: 'Payment being processed',
  cancelled: 'Payment cancelled',
  declined: 'Payment declined',
};

/** After a checkout: back to the client's redirect_url with `payment=<outcome>`, or a plain page when it gave none. */
export function finishCheckout(res: Response, payment: Payment, outcome: CheckoutOutcome): void {
  if (payment.redirectUrl) {
    const target = new URL(payment.redirectUrl);
    target.searchParams.set('payment', outcome);
    return void res.redirect(303, target.toString());
  }
  res.type('html').send(htmlPage(TITLES[outcome], `<p>${escapeHtml(payment.description)}</p>`));
}

export const htmlPage = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
