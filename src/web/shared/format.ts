/** How the applications write dates and money for people: the browser's locale, the service's UTC instants. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');

export const formatMoney = (cents: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(cents / 100);

/** Words of the enums that are initials, written as such. */
const INITIALS = /\b(asl|ai)\b/gi;

/** `IN_REVIEW` -> "In review", `ASL_CERTIFIED` -> "ASL certified". */
export const formatEnum = (value: string) =>
  (value.charAt(0) + value.slice(1).toLowerCase().replaceAll('_', ' ')).replace(INITIALS, (word) => word.toUpperCase());

/**
 * Why an order is held, in words: the desk's own reason as written, or the service's `awaiting_client` (a desk
 * message asked the client and waits, D30) said to whoever reads it.
 */
export const holdReasonText = (reason: string | null, reader: 'client' | 'desk') =>
  reason !== 'awaiting_client'
    ? (reason ?? '')
    : reader === 'client'
      ? 'waiting for your answer to the desk’s message'
      : 'waiting for the client’s answer';
