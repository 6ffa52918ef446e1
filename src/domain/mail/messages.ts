import type { OutgoingEmail } from '../../providers/mail/mailer';
import { formatMoney } from '../shared/money';
import type { Account } from '../identity/account.entity';
import { bookingTime } from '../shared/booking-time';
import { languagePairName } from '../catalog/language-names';

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

/** What a booking e-mail names (D29): the language pair by name and the start as the client gave it, with UTC. */
type BookingFacts = {
  number: string;
  sourceLanguage: string;
  targetLanguage: string;
  scheduledAt: Date;
  scheduledOffsetMinutes: number;
};

const bookingLine = (booking: BookingFacts) =>
  `booking ${booking.number} (${languagePairName(booking.sourceLanguage, booking.targetLanguage)}) on ${bookingTime(booking)}`;

/**
 * D12, D17: staff found an interpreter; the account pays at the link, before the start (D29), knowing what a cancel
 * will cost once paid (`terms`: the policy's deadlines in its offset with UTC, D32).
 */
export function bookingAvailabilityEmail(
  account: Account,
  booking: BookingFacts & { totalCents: number; currency: string },
  approvalUrl: string,
  terms: string,
): OutgoingEmail {
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: booking.currency }).format(
    booking.totalCents / 100,
  );
  return {
    kind: 'booking_awaiting_payment',
    to: account.email,
    subject: `Interpreter confirmed for ${booking.number}: payment needed`,
    text: [
      `Hello ${account.name},`,
      '',
      `An interpreter is available for ${bookingLine(booking)}.`,
      `Pay ${amount} here to lock it in:`,
      '',
      `    ${approvalUrl}`,
      '',
      'The link can be paid until the booking starts; an unpaid booking is then cancelled.',
      terms,
    ].join('\n'),
  };
}

/** D32: the session ran past the hours billed; the account pays the overtime at the link. */
export function bookingOvertimeEmail(
  account: Account,
  booking: BookingFacts & { currency: string; unitPriceCents: number },
  overtime: { hours: number; actualHours: number; amountCents: number },
  approvalUrl: string,
): OutgoingEmail {
  return {
    kind: 'booking_overtime',
    to: account.email,
    subject: `Overtime of ${booking.number}: payment needed`,
    text: [
      `Hello ${account.name},`,
      '',
      `The session of ${bookingLine(booking)} took ${overtime.actualHours} hours, ${overtime.hours} more than were billed (rounded up to the half hour).`,
      `Pay the overtime, ${formatMoney(overtime.amountCents, booking.currency)} (${overtime.hours} h at ${formatMoney(booking.unitPriceCents, booking.currency)}/h), here:`,
      '',
      `    ${approvalUrl}`,
    ].join('\n'),
  };
}

/** D29: the start of an unpaid booking passed, so it was cancelled. */
export function bookingExpiredEmail(account: Account, booking: BookingFacts): OutgoingEmail {
  return {
    kind: 'booking_expired',
    to: account.email,
    subject: `Booking ${booking.number} was cancelled: it was not paid before its start`,
    text: [
      `Hello ${account.name},`,
      '',
      `We cancelled ${bookingLine(booking)}: its start passed before it was paid, so no interpreter was held for it.`,
      '',
      'Book again whenever you need an interpreter.',
    ].join('\n'),
  };
}

/** D17: something needs the operator's attention; they follow up by e-mail. `when` names a booking's start (D29). */
export function onHoldEmail(account: Account, what: string, reason: string, when?: string): OutgoingEmail {
  return {
    kind: 'on_hold',
    to: account.email,
    subject: `${what} is on hold`,
    text: [
      `Hello ${account.name},`,
      '',
      `${what} is on hold: ${reason}`,
      ...(when ? [when] : []),
      '',
      'We will contact you shortly about the next steps.',
    ].join('\n'),
  };
}

/**
 * D17: the translation is ready; download links are signed fresh on the order's page, so none are put in the mail: it
 * links to that page of the portal (D30). It says what was billed beside the pages on paper (D29).
 */
export function orderCompletedEmail(
  account: Account,
  order: { number: string; billed: string },
  orderPage: string,
): OutgoingEmail {
  return {
    kind: 'order_completed',
    to: account.email,
    subject: `Order ${order.number} is complete`,
    text: [
      `Hello ${account.name},`,
      '',
      `Order ${order.number} is complete. Download the files from its page in the client portal: ${orderPage}`,
      `It covered ${order.billed}.`,
    ].join('\n'),
  };
}

/**
 * D26: money captured for something already cancelled, or that could no longer be paid (a booking whose start passed,
 * D29: `late` says why), goes straight back; the account hears why.
 */
export function lateCaptureRefundEmail(
  account: Account,
  what: string,
  payment: { amountCents: number; currency: string },
  late: string | null,
): OutgoingEmail {
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: payment.currency }).format(
    payment.amountCents / 100,
  );
  const arrived = late ? `arrived too late: ${late}` : 'arrived after it was cancelled.';
  return {
    kind: 'payment_refunded',
    to: account.email,
    subject: `${what}: your payment is being refunded`,
    text: [
      `Hello ${account.name},`,
      '',
      `A payment of ${amount} for ${what} ${arrived} We are refunding it in full; nothing more is needed from you.`,
    ].join('\n'),
  };
}

/**
 * A receipt for every payment taken (an order or a booking), with what it paid for, and `terms` when what was paid
 * for has any (a booking's cancellation deadlines, D32).
 */
export function paymentReceiptEmail(
  account: Account,
  what: string,
  payment: { amountCents: number; currency: string; paidAt: Date | null; captureId: string | null; provider: string },
  detail?: string,
  terms?: string,
): OutgoingEmail {
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: payment.currency }).format(
    payment.amountCents / 100,
  );
  // D31: placed on account, nothing was paid: the monthly invoice collects it.
  if (payment.provider === 'account')
    return {
      kind: 'placed_on_account',
      to: account.email,
      subject: `Placed on account: ${amount} for ${what}`,
      text: [
        `Hello ${account.name},`,
        '',
        `${what} (${amount}) was placed on your account on ${(payment.paidAt ?? new Date()).toISOString().slice(0, 10)}.`,
        ...(detail ? [`It is for ${detail}.`] : []),
        'It will be on your next monthly invoice.',
        ...(terms ? [terms] : []),
      ].join('\n'),
    };
  return {
    kind: 'payment_receipt',
    to: account.email,
    subject: `Receipt: ${amount} for ${what}`,
    text: [
      `Hello ${account.name},`,
      '',
      `We received your payment of ${amount} for ${what} on ${(payment.paidAt ?? new Date()).toISOString().slice(0, 10)}.`,
      ...(detail ? [`It pays for ${detail}.`] : []),
      `Payment reference: ${payment.captureId ?? 'n/a'}`,
      ...(terms ? [terms] : []),
      '',
      'Thank you.',
    ].join('\n'),
  };
}

/** D22: the hard copies are on their way, with what the account needs to follow them (again when staff correct it). */
export function hardCopiesShippedEmail(
  account: Account,
  orderNumber: string,
  shipment: { carrier: string; trackingNumber: string },
  { corrected = false } = {},
): OutgoingEmail {
  return {
    kind: 'hard_copies_shipped',
    to: account.email,
    subject: `Order ${orderNumber}: ${corrected ? 'corrected tracking for your hard copies' : 'your hard copies have shipped'}`,
    text: [
      `Hello ${account.name},`,
      '',
      corrected
        ? `The tracking details of the hard copies of order ${orderNumber} were corrected: they are with ${shipment.carrier}.`
        : `The hard copies of order ${orderNumber} are on their way with ${shipment.carrier}.`,
      `Tracking number: ${shipment.trackingNumber}`,
    ].join('\n'),
  };
}

/**
 * D22: the order is complete but its hard copies have nowhere to go; sent once, when it completes. It links to the
 * page where a person gives the address (D30); the API's way is for the API's own documentation.
 */
export function shippingAddressNeededEmail(
  account: Account,
  order: { number: string },
  addressPage: string,
): OutgoingEmail {
  return {
    kind: 'shipping_address_needed',
    to: account.email,
    subject: `Order ${order.number}: where should we mail your hard copies?`,
    text: [
      `Hello ${account.name},`,
      '',
      `Order ${order.number} is complete, and its hard copies are ready to mail, but we have no address for them.`,
      `Tell us where to mail them on this page, and we will ship them: ${addressPage}`,
    ].join('\n'),
  };
}

/** D27: the sign-in code, shown only here; the code is stored hashed. */
export function signInCodeEmail(to: string, code: string, minutes: number): OutgoingEmail {
  return {
    kind: 'sign_in_code',
    to,
    subject: `Your sign-in code: ${code}`,
    text: [
      'Hello,',
      '',
      'Here is your sign-in code:',
      '',
      `    ${code}`,
      '',
      `It works once, for ${minutes} minutes. If you did not ask for it, ignore this message: nobody can sign in without it.`,
    ].join('\n'),
  };
}

/** D27: an admin invited someone to the account; they sign in with a code sent to this address. */
export function memberInvitationEmail(
  account: Account,
  invitee: { name: string; email: string; role: string },
  invitedBy: string,
): OutgoingEmail {
  return {
    kind: 'member_invitation',
    to: invitee.email,
    subject: `You are invited to ${account.name}`,
    text: [
      `Hello ${invitee.name},`,
      '',
      `${invitedBy} invited you to the account of ${account.name} as ${invitee.role === 'admin' ? 'an' : 'a'} ${invitee.role}.`,
      '',
      `Sign in with this e-mail address (${invitee.email}): ask for a sign-in code and enter the code you receive.`,
      'No password is needed.',
    ].join('\n'),
  };
}
