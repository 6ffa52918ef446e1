import type { OutgoingEmail } from '../../providers/mail/mailer';
import type { Account } from '../accounts/account.entity';

/** The key is written here and nowhere else; this message is the only place it is ever shown (D13). */
export function apiKeyEmail(account: Account, apiKey: string, reason: 'approved' | 'regenerated'): OutgoingEmail {
  const intro =
    reason === 'approved'
      ? 'Your account has been approved. Here is your API key.'
      : 'A new API key was issued for your account. The previous key no longer works.';
  return {
    kind: 'api_key',
    to: account.email,
    replacesUnsent: true,
    subject: reason === 'approved' ? 'Your API key' : 'Your new API key',
    text: [
      `Hello ${account.name},`,
      '',
      intro,
      '',
      `    ${apiKey}`,
      '',
      'Send it as "Authorization: Bearer <key>" with every request. Keep it secret: it will not be shown again.',
    ].join('\n'),
  };
}

/** D12, D17: staff found an interpreter; the account pays at the link. */
export function bookingAvailabilityEmail(account: Account, booking: { number: string; scheduledAt: Date; totalCents: number; currency: string }, approvalUrl: string): OutgoingEmail {
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: booking.currency }).format(booking.totalCents / 100);
  return {
    kind: 'booking_awaiting_payment',
    to: account.email,
    subject: `Interpreter confirmed for ${booking.number}: payment needed`,
    text: [
      `Hello ${account.name},`,
      '',
      `An interpreter is available for booking ${booking.number} on ${booking.scheduledAt.toISOString()}.`,
      `Pay ${amount} here to lock it in:`,
      '',
      `    ${approvalUrl}`,
    ].join('\n'),
  };
}

/** D17: something needs the operator's attention; they follow up by e-mail. */
export function onHoldEmail(account: Account, what: string, reason: string): OutgoingEmail {
  return {
    kind: 'on_hold',
    to: account.email,
    subject: `${what} is on hold`,
    text: [`Hello ${account.name},`, '', `${what} is on hold: ${reason}`, '', 'We will contact you shortly about the next steps.'].join('\n'),
  };
}

/** D17: the translation is ready; links are fetched fresh from the order, so none are put in the mail. */
export function orderCompletedEmail(account: Account, order: { number: string }): OutgoingEmail {
  return {
    kind: 'order_completed',
    to: account.email,
    subject: `Order ${order.number} is complete`,
    text: [`Hello ${account.name},`, '', `Order ${order.number} is complete. Download the files from the order in your integration or portal.`].join('\n'),
  };
}

/** D26: money captured for something already cancelled goes straight back; the account hears why. */
export function lateCaptureRefundEmail(account: Account, what: string, payment: { amountCents: number; currency: string }): OutgoingEmail {
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: payment.currency }).format(payment.amountCents / 100);
  return {
    kind: 'payment_refunded',
    to: account.email,
    subject: `${what}: your payment is being refunded`,
    text: [`Hello ${account.name},`, '', `A payment of ${amount} for ${what} arrived after it was cancelled. We are refunding it in full; nothing more is needed from you.`].join('\n'),
  };
}

/** A receipt for every payment taken (an order or a booking), with what it paid for. */
export function paymentReceiptEmail(account: Account, what: string, payment: { amountCents: number; currency: string; paidAt: Date | null; captureId: string | null }): OutgoingEmail {
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: payment.currency }).format(payment.amountCents / 100);
  return {
    kind: 'payment_receipt',
    to: account.email,
    subject: `Receipt: ${amount} for ${what}`,
    text: [
      `Hello ${account.name},`,
      '',
      `We received your payment of ${amount} for ${what} on ${(payment.paidAt ?? new Date()).toISOString().slice(0, 10)}.`,
      `Payment reference: ${payment.captureId ?? 'n/a'}`,
      '',
      'Thank you.',
    ].join('\n'),
  };
}

/** D22: the hard copies are on their way, with what the account needs to follow them. */
export function hardCopiesShippedEmail(account: Account, orderNumber: string, shipment: { carrier: string; trackingNumber: string }): OutgoingEmail {
  return {
    kind: 'hard_copies_shipped',
    to: account.email,
    subject: `Order ${orderNumber}: your hard copies have shipped`,
    text: [`Hello ${account.name},`, '', `The hard copies of order ${orderNumber} are on their way with ${shipment.carrier}.`, `Tracking number: ${shipment.trackingNumber}`].join('\n'),
  };
}
